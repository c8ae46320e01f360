// Package handpack owns the form a hand's facts, result and state after
// are stored in (hands.body): the three JSON texts, each after its length
// (a uvarint), in one zstd frame compressed against a dictionary of the
// game's typical hands. The frame names its dictionary by id, so a body is
// read without knowing its game; a game without a dictionary is packed
// with none. A dictionary never changes once bodies are packed with it: a
// better one takes a new id, and the old one stays to read the old bodies
// (dict_test.go pins their contents).
package handpack

import (
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A dictionary is the raw content a game's bodies are compressed
// against: hands of that game, packed as Pack packs them (see the
// README beside this file).
type dictionary struct {
	id   uint32
	file string
}

// dictionaries are the game's dictionaries Pack uses, by game. Their ids
// lie in zstd's range for private dictionaries (32768 to 2^31-1).
var dictionaries = map[string]dictionary{
	"doppelkopf":    {0x53420101, "dict/doppelkopf-1"},
	"saukopf":       {0x53420201, "dict/saukopf-1"},
	"schwarze_sau":  {0x53420301, "dict/schwarze_sau-1"},
	"schwarze_dame": {0x53420401, "dict/schwarze_dame-1"},
	"klaberjass":    {0x53420501, "dict/klaberjass-1"},
}

//go:embed dict
var dicts embed.FS

// maxBody is the most a body unpacks to: far above a hand's texts (a
// request is at most 1 MiB), a bound on what a damaged body can cost.
const maxBody = 8 << 20

var (
	setup    sync.Once
	setupErr error
	encoders map[string]*zstd.Encoder // by game; nil key "" packs without a dictionary
	decoder  *zstd.Decoder
)

func load() {
	encOpts := func(extra ...zstd.EOption) []zstd.EOption {
		return append([]zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false),
			zstd.WithSingleSegment(true), zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0))}, extra...)
	}
	decOpts := []zstd.DOption{zstd.WithDecoderMaxMemory(maxBody), zstd.WithDecoderConcurrency(0)}
	encoders = map[string]*zstd.Encoder{}
	plain, err := zstd.NewWriter(nil, encOpts()...)
	if err != nil {
		setupErr = err
		return
	}
	encoders[""] = plain
	for game, d := range dictionaries {
		content, err := dicts.ReadFile(d.file)
		if err != nil {
			setupErr = fmt.Errorf("handpack: the dictionary of %s: %w", game, err)
			return
		}
		if encoders[game], err = zstd.NewWriter(nil, encOpts(zstd.WithEncoderDictRaw(d.id, content))...); err != nil {
			setupErr = fmt.Errorf("handpack: the dictionary of %s: %w", game, err)
			return
		}
		decOpts = append(decOpts, zstd.WithDecoderDictRaw(d.id, content))
	}
	decoder, setupErr = zstd.NewReader(nil, decOpts...)
}

// Pack returns the body of a hand of game with these facts, result and
// state after.
func Pack(game string, facts, result, state []byte) ([]byte, error) {
	if setup.Do(load); setupErr != nil {
		return nil, setupErr
	}
	raw := make([]byte, 0, len(facts)+len(result)+len(state)+2*binary.MaxVarintLen64)
	raw = binary.AppendUvarint(raw, uint64(len(facts)))
	raw = append(raw, facts...)
	raw = binary.AppendUvarint(raw, uint64(len(result)))
	raw = append(raw, result...)
	raw = append(raw, state...)
	enc, ok := encoders[game]
	if !ok {
		enc = encoders[""]
	}
	return enc.EncodeAll(raw, nil), nil
}

// ErrDamaged is the error of a body that does not unpack.
var ErrDamaged = errors.New("handpack: the body does not unpack")

// Unpack returns the facts, result and state after a body was packed
// from.
func Unpack(body []byte) (facts, result, state []byte, err error) {
	if setup.Do(load); setupErr != nil {
		return nil, nil, nil, setupErr
	}
	raw, err := decoder.DecodeAll(body, nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if facts, raw, err = cut(raw); err != nil {
		return nil, nil, nil, err
	}
	if result, state, err = cut(raw); err != nil {
		return nil, nil, nil, err
	}
	return facts, result, state, nil
}

// cut splits a text after its length off the front of raw.
func cut(raw []byte) (text, rest []byte, err error) {
	n, size := binary.Uvarint(raw)
	if size <= 0 || n > uint64(len(raw)-size) {
		return nil, nil, fmt.Errorf("%w: a length runs past its end", ErrDamaged)
	}
	end := size + int(n)
	return raw[size:end:end], raw[end:], nil
}
