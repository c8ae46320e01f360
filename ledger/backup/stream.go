package backup

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// MaxRecordBytes bounds one line of a document. The longest record a
// ledger makes is a hand or revision with its result, a few kilobytes, or
// a settlement version of a long evening; a longer line is refused rather
// than read into memory.
const MaxRecordBytes = 8 << 20

// Writer writes a document record by record, one line each: the format
// line first, the end line on Close.
type Writer struct {
	w       *bufio.Writer
	enc     *json.Encoder
	records int64
	started bool
}

// NewWriter returns a writer of a document to w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Writer{w: bw, enc: enc}
}

// Write writes one record (after the format line, if it is the first).
func (w *Writer) Write(r Record) error {
	if !w.started {
		w.started = true
		if err := w.enc.Encode(Record{Format: Format}); err != nil {
			return err
		}
	}
	w.records++
	return w.enc.Encode(r)
}

// Close writes the end line and flushes; it does not close the writer
// underneath.
func (w *Writer) Close() error {
	if !w.started {
		w.started = true
		if err := w.enc.Encode(Record{Format: Format}); err != nil {
			return err
		}
	}
	if err := w.enc.Encode(Record{End: &End{Records: w.records}}); err != nil {
		return err
	}
	return w.w.Flush()
}

// Reader reads a document record by record, never more than one line
// at a time.
type Reader struct {
	r       *bufio.Reader
	sc      *bufio.Scanner
	line    int
	records int64
	ended   bool
}

// NewReader returns a reader of the document in r.
func NewReader(r io.Reader) *Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecordBytes)
	return &Reader{r: br, sc: sc}
}

// Line is the number of the line Next read last.
func (r *Reader) Line() int { return r.line }

// Next returns the next record after the format line; io.EOF once the end
// line was read and nothing follows it. It refuses another format, a line
// that is not one record, and a document that ends before its end line.
func (r *Reader) Next() (Record, error) {
	if r.line == 0 {
		if err := r.readFormat(); err != nil {
			return Record{}, err
		}
	}
	if r.ended {
		if r.sc.Scan() {
			r.line++
			return Record{}, r.invalid("document", "nothing may follow the end line")
		}
		if err := r.sc.Err(); err != nil {
			return Record{}, err
		}
		return Record{}, io.EOF
	}
	rec, err := r.read()
	if err != nil {
		return Record{}, err
	}
	if rec.Format != "" {
		return Record{}, r.invalid("format", "is given twice")
	}
	if rec.End != nil {
		r.ended = true
		if rec.End.Records != r.records {
			return Record{}, r.invalid("end.records", "says %d records, the document holds %d: it was cut or spliced", rec.End.Records, r.records)
		}
		return r.Next()
	}
	r.records++
	return rec, nil
}

// readFormat reads the first line: the format marker, alone.
func (r *Reader) readFormat() error {
	if head, _ := r.r.Peek(200); isFormat1(head) {
		r.line = 1
		return r.invalid("format", "is %q, which this stichbuch no longer reads (it carried API keys and money an import cannot verify); restore it with the release that wrote it and export it again, as %q", "stichbuch-export/1", Format)
	}
	rec, err := r.read()
	if err != nil {
		return err
	}
	if rec.Format == "" {
		return r.invalid("format", "missing: this is not a stichbuch export (want %q on the first line)", Format)
	}
	if rec.Format != Format {
		return r.invalid("format", "is %q; this stichbuch reads %q only", rec.Format, Format)
	}
	return nil
}

// isFormat1 tells the indented single object of stichbuch-export/1 by its
// opening.
func isFormat1(head []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("{"))
	return ok && bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(`"format": "stichbuch-export/1"`))
}

// read reads one line as one record with exactly one field set.
func (r *Reader) read() (Record, error) {
	if !r.sc.Scan() {
		err := r.sc.Err()
		if errors.Is(err, bufio.ErrTooLong) {
			return Record{}, r.invalid("document", "line %d is longer than %d bytes", r.line+1, MaxRecordBytes)
		}
		if err != nil {
			return Record{}, err
		}
		r.line++
		if r.line == 1 {
			return Record{}, r.invalid("document", "is empty: this is not a stichbuch export")
		}
		return Record{}, r.invalid("document", "ends without its end line: it is truncated")
	}
	r.line++
	var rec Record
	if err := score.DecodeStrict("", r.sc.Bytes(), &rec); err != nil {
		e := ledger.AsError(err)
		return Record{}, r.invalid(e.Field, "%s", e.Rule)
	}
	if n := rec.kinds(); n != 1 {
		return Record{}, r.invalid("document", "a line holds one record, this one holds %d", n)
	}
	return rec, nil
}

// kinds counts the record's fields that are set.
func (rec Record) kinds() int {
	n := 0
	if rec.Format != "" {
		n++
	}
	for _, set := range []bool{rec.Club != nil, rec.Key != nil, rec.Player != nil, rec.Table != nil, rec.Session != nil,
		rec.Hand != nil, rec.Revision != nil, rec.Settlement != nil, rec.Transfer != nil, rec.Tournament != nil,
		rec.Round != nil, rec.KittyBooking != nil, rec.Change != nil, rec.End != nil,
		rec.SeasonRules != nil, rec.OldListImport != nil, rec.ImportedEvening != nil} {
		if set {
			n++
		}
	}
	return n
}

// invalid refuses the line read last.
func (r *Reader) invalid(field, format string, args ...any) error {
	return lineError(r.line, field, fmt.Sprintf(format, args...))
}

// lineError is EINVALID naming a line of the document and the field in it.
func lineError(line int, field, rule string) error {
	if field == "" {
		field = "document"
	}
	return ledger.Invalid(fmt.Sprintf("line %d: %s", line, field), "%s", rule)
}
