package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// TestEventsNameReferencesWithID: an event stream's frame carries its
// change's data with references named _id, whatever names the stored
// change keeps, and leaves data without references as it is.
func TestEventsNameReferencesWithID(t *testing.T) {
	stored := ledger.Change{Seq: 9, Kind: ledger.ChangeRoundOpened,
		Data: json.RawMessage(`{"tournament":3,"round":1,"tables":[{"table":4,"session":17},{"table":5,"session":18}]}`)}
	ev, err := newHubEvent(ledger.Event{Change: stored})
	if err != nil {
		t.Fatal(err)
	}
	_, data, _ := bytes.Cut(ev.frame, []byte("data: "))
	var got struct {
		Change struct {
			Data map[string]any `json:"data"`
		} `json:"change"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(data), &got); err != nil {
		t.Fatalf("the frame %q: %v", ev.frame, err)
	}
	want := `{"round":1,"tables":[{"session_id":17,"table_id":4},{"session_id":18,"table_id":5}],"tournament_id":3}`
	if raw, _ := json.Marshal(got.Change.Data); string(raw) != want {
		t.Errorf("the event's data is %s, want %s", raw, want)
	}
	if !strings.HasPrefix(string(ev.frame), "id: 9\nevent: tournament_round_opened\n") {
		t.Errorf("the frame begins %q", ev.frame)
	}
	plain := ledger.Change{Seq: 10, Kind: ledger.ChangePlayerUpdated, Data: json.RawMessage(`{"player_id":2,"name":"Bernd","was":"Bernd K.","retired":false}`)}
	if c := publicChange(plain); !ledger.SameJSON(c.Data, plain.Data) {
		t.Errorf("a change without bare references is sent as %s", c.Data)
	}
	for _, raw := range []string{``, `null`, `[1,2]`, `"x"`} {
		if c := publicChange(ledger.Change{Data: json.RawMessage(raw)}); string(c.Data) != raw {
			t.Errorf("data %q is sent as %q", raw, c.Data)
		}
	}
}
