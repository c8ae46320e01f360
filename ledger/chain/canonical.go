package chain

import (
	"bytes"
	"errors"

	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// parser reads one JSON value and appends its canonical form (see
// Canonical). It decodes strings as encoding/json does: escapes resolved,
// a surrogate that pairs with no other and a byte that is not UTF-8 each
// read as U+FFFD.
type parser struct {
	in  []byte
	pos int
}

// maxDepth is encoding/json's limit of nesting.
const maxDepth = 10000

var errSyntax = errors.New("chain: a JSON value: invalid JSON")

func (p *parser) space() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value appends the canonical form of the value at p.pos to dst.
func (p *parser) value(dst []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errors.New("chain: a JSON value nested too deeply")
	}
	p.space()
	if p.pos >= len(p.in) {
		return nil, errSyntax
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object(dst, depth)
	case c == '[':
		return p.array(dst, depth)
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return appendString(dst, s), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(string(p.in[p.pos:min(len(p.in), p.pos+len(lit))]), lit) {
			p.pos += len(lit)
			return append(dst, lit...), nil
		}
	}
	return nil, errSyntax
}

// member is an object's member: its key and where its canonical value
// lies in the object's scratch buffer.
type member struct {
	key        []byte
	start, end int
}

func (p *parser) object(dst []byte, depth int) ([]byte, error) {
	p.pos++ // {
	var scratch []byte
	var members []member
	p.space()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return append(dst, "{}"...), nil
	}
	for {
		p.space()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return nil, errSyntax
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return nil, errSyntax
		}
		p.pos++
		start := len(scratch)
		if scratch, err = p.value(scratch, depth+1); err != nil {
			return nil, err
		}
		members = append(members, member{key: key, start: start, end: len(scratch)})
		p.space()
		if p.pos >= len(p.in) {
			return nil, errSyntax
		}
		if p.in[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.in[p.pos] != '}' {
			return nil, errSyntax
		}
		p.pos++
		break
	}
	// By key; of a repeated key the last, as a decoder into a map keeps it.
	slices.SortStableFunc(members, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	dst = append(dst, '{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && bytes.Equal(members[i+1].key, m.key) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, scratch[m.start:m.end]...)
	}
	return append(dst, '}'), nil
}

func (p *parser) array(dst []byte, depth int) ([]byte, error) {
	p.pos++ // [
	dst = append(dst, '[')
	p.space()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		return append(dst, ']'), nil
	}
	for n := 0; ; n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = p.value(dst, depth+1); err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.in) {
			return nil, errSyntax
		}
		if p.in[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.in[p.pos] != ']' {
			return nil, errSyntax
		}
		p.pos++
		return append(dst, ']'), nil
	}
}

// number reads a number as JSON's grammar has it and appends its
// canonical form.
func (p *parser) number(dst []byte) ([]byte, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.in[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.in) && p.in[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, errSyntax
	}
	if p.pos < len(p.in) && p.in[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	if p.pos < len(p.in) && (p.in[p.pos] == 'e' || p.in[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.in) && (p.in[p.pos] == '+' || p.in[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	lit := p.in[start:p.pos]
	if !bytes.ContainsAny(lit, ".eE") { // an integer: as written, but for -0
		if string(lit) == "-0" {
			return append(dst, '0'), nil
		}
		return append(dst, lit...), nil
	}
	n, err := canonicalNumber(string(lit))
	return append(dst, n...), err
}

// string reads a string and returns it decoded (a part of the input when
// there is nothing to decode).
func (p *parser) string() ([]byte, error) {
	p.pos++ // "
	start := p.pos
	// The common case: no escape, nothing to replace.
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		if c == '"' {
			s := p.in[start:p.pos]
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.pos++
	}
	out := append([]byte(nil), p.in[start:p.pos]...)
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return out, nil
		case c < 0x20:
			return nil, errSyntax
		case c == '\\':
			p.pos++
			if p.pos >= len(p.in) {
				return nil, errSyntax
			}
			e := p.in[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return nil, errSyntax
				}
				if utf16.IsSurrogate(r) {
					if p.pos+1 < len(p.in) && p.in[p.pos] == '\\' && p.in[p.pos+1] == 'u' {
						save := p.pos
						p.pos += 2
						if r2, ok := p.hex4(); ok {
							if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
								out = utf8.AppendRune(out, d)
								continue
							}
						}
						p.pos = save
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			default:
				return nil, errSyntax
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.in[p.pos:])
			p.pos += size
			out = utf8.AppendRune(out, r) // RuneError for a byte that is not UTF-8
		}
	}
	return nil, errSyntax
}

// hex4 reads the four hex digits of a \u escape.
func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.in) {
		return 0, false
	}
	var r rune
	for _, c := range p.in[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

// appendString appends s quoted: '"' and '\\' escaped with a backslash,
// characters below U+0020 as \u00XX, everything else as its UTF-8 bytes.
func appendString[S string | []byte](dst []byte, s S) []byte {
	const digits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', digits[c>>4], digits[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}
