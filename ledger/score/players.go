package score

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Player references in texts.
//
// An engine names a player in a text meant for people (a result's title, a
// line's label, an event's text, a state's summary) by a reference, never
// by his database id: PlayerRef(12) is "{{player:12}}". The ledger renders
// the references with the club's names wherever people read the text
// (RenderPlayers): "{{player:12}} gibt noch einmal" reads "Anna gibt noch
// einmal". A reference to an id without a name renders as "Spieler 12".
//
// A reference stands for the bare name, so engines write their sentences
// around it as around a name: "Verstoß von {{player:3}}", "{{player:1}}
// und {{player:2}} gewinnen" (PlayerList), a side "{{player:1}}/
// {{player:3}}". Stored results keep the references, so a renamed player
// reads right everywhere; structured fields (Points, Events' Players, …)
// keep the ids.
//
// The format is "{{player:" + the id in decimal + "}}": ASCII that JSON
// encoding leaves as it is, so a reference inside a JSON document (a
// state's summary) reads the same as in the text.
const (
	refOpen  = "{{player:"
	refClose = "}}"
)

// PlayerRef is the reference to player id in a text: "{{player:12}}".
func PlayerRef(id int64) string {
	return refOpen + strconv.FormatInt(id, 10) + refClose
}

// HasPlayerRefs reports whether text holds a player reference.
func HasPlayerRefs(text string) bool { return strings.Contains(text, refOpen) }

// PlayerList joins the references to ids the German way: "A", "A und B",
// "A, B und C"; "" for none.
func PlayerList(ids []int64) string {
	refs := make([]string, len(ids))
	for i, id := range ids {
		refs[i] = PlayerRef(id)
	}
	return JoinGerman(refs)
}

// JoinGerman joins parts as German lists them: "a", "a und b", "a, b
// und c".
func JoinGerman(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " und " + parts[len(parts)-1]
}

// RenderPlayers replaces every player reference in text by the player's
// name from names, or by "Spieler N" for an id names lacks. Text without
// a reference is returned as is.
func RenderPlayers(text string, names map[int64]string) string {
	return renderRefs(text, func(id int64) string { return nameOf(id, names) })
}

// nameOf is a player's name, or "Spieler N" without one.
func nameOf(id int64, names map[int64]string) string {
	if name, ok := names[id]; ok && name != "" {
		return name
	}
	return "Spieler " + strconv.FormatInt(id, 10)
}

// renderRefs replaces each well-formed reference by repl(id); anything
// else that starts like one is kept.
func renderRefs(text string, repl func(int64) string) string {
	if !strings.Contains(text, refOpen) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, refOpen)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		rest := text[i+len(refOpen):]
		j := strings.Index(rest, refClose)
		id, err := int64(0), error(nil)
		if j > 0 {
			id, err = strconv.ParseInt(rest[:j], 10, 64)
		}
		if j <= 0 || err != nil || id < 0 {
			b.WriteString(refOpen)
			text = rest
			continue
		}
		b.WriteString(repl(id))
		text = rest[j+len(refClose):]
	}
}

// RenderPlayersJSON renders the player references inside the strings of
// a JSON document (a state's summary), each name escaped for JSON.
func RenderPlayersJSON(raw json.RawMessage, names map[int64]string) json.RawMessage {
	if !bytes.Contains(raw, []byte(refOpen)) {
		return raw
	}
	return json.RawMessage(renderRefs(string(raw), func(id int64) string {
		quoted, _ := json.Marshal(nameOf(id, names))
		return string(quoted[1 : len(quoted)-1])
	}))
}

// WithNames returns the result with every player reference in its texts
// rendered by RenderPlayers: the title, the lines' labels, the events'
// texts and the strings of the state. r itself is not changed.
func (r Result) WithNames(names map[int64]string) Result {
	r.Title = RenderPlayers(r.Title, names)
	if r.Lines != nil {
		lines := make([]Line, len(r.Lines))
		for i, l := range r.Lines {
			l.Label = RenderPlayers(l.Label, names)
			lines[i] = l
		}
		r.Lines = lines
	}
	if r.Events != nil {
		events := make([]Event, len(r.Events))
		for i, ev := range r.Events {
			ev.Text = RenderPlayers(ev.Text, names)
			events[i] = ev
		}
		r.Events = events
	}
	r.State = RenderPlayersJSON(r.State, names)
	return r
}

// InSeatingOrder orders ids as they sit in seated, each once; the ids not
// seated follow, sorted.
func InSeatingOrder(ids, seated []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range seated {
		if slices.Contains(ids, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	var rest []int64
	for _, id := range ids {
		if !slices.Contains(out, id) {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
