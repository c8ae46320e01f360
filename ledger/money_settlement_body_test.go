package ledger_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// storedBody is a settlement body as settlements have been stored since
// the first version: references named "player", "from", "to".
const storedBody = `{"session_id":7,"table_id":3,"version":1,"final":true,"date":"2026-03-12","game":"doppelkopf",
"stake_cents_per_point":"10","settle_mode":"transfers","rules":{"preset":"dk"},"match_loss_cents":0,
"players":[{"player":1,"name":"Anna","points":"3","hands":4,"points_cents":30,"payout_cents":0,"net_cents":30,
"between_players_cents":30,"with_kitty_cents":0,"settle_cents":30,"paid_cents":0,"received_cents":0,"open_cents":30},
{"player":2,"name":"Bernd","points":"-3","hands":4,"points_cents":-30,"payout_cents":-500,"net_cents":-530,
"between_players_cents":-30,"with_kitty_cents":-500,"settle_cents":-530,"paid_cents":0,"received_cents":0,"open_cents":-530}],
"payouts":[{"hand":3,"type":"sau_limit","text":"Bernd zahlt","from":2,"to":null,"cents":500}],
"transfers":[{"id":11,"session_id":7,"from":2,"to":1,"cents":30,"paid":false,"version":1,"current":true,"date":"2026-03-12"},
{"session_id":7,"from":2,"to":null,"cents":500,"paid":true,"paid_at":"2026-03-13T19:00:00Z","current":false}],
"kitty_cents":500,"kitty_open_cents":0}`

// TestStoredSettlementBodiesStillRead: a body stored before the API named
// its references _id reads as it was written, and writing it again gives
// the same stored form, while the API's JSON names them _id.
func TestStoredSettlementBodiesStillRead(t *testing.T) {
	st, err := ledger.ParseSettlementBody([]byte(storedBody))
	if err != nil {
		t.Fatal(err)
	}
	kitty := (*int64)(nil)
	if st.Players[1].Player != 2 || st.Payouts[0].From != 2 || st.Payouts[0].To != kitty ||
		*st.Transfers[0].From != 2 || *st.Transfers[0].To != 1 || st.Transfers[1].To != nil || st.Transfers[1].PaidAt == nil {
		t.Errorf("the stored body reads as %+v", st)
	}
	again, err := ledger.SettlementBody(st)
	if err != nil {
		t.Fatal(err)
	}
	if !ledger.SameJSON(again, []byte(storedBody)) {
		t.Errorf("the stored form is not kept:\n%s\nwant\n%s", again, storedBody)
	}
	api, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Players   []map[string]any `json:"players"`
		Payouts   []map[string]any `json:"payouts"`
		Transfers []map[string]any `json:"transfers"`
	}
	if err := json.Unmarshal(api, &m); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]map[string]any{"players[0]": m.Players[0], "payouts[0]": m.Payouts[0], "transfers[0]": m.Transfers[0]} {
		for _, old := range []string{"player", "from", "to"} {
			if _, ok := got[old]; ok {
				t.Errorf("the API's %s still names %q: %v", name, old, got)
			}
		}
	}
	if m.Players[0]["player_id"] != 1.0 || m.Payouts[0]["from_player_id"] != 2.0 || m.Payouts[0]["to_player_id"] != nil ||
		m.Transfers[0]["from_player_id"] != 2.0 || m.Transfers[0]["to_player_id"] != 1.0 {
		t.Errorf("the API's settlement: %s", api)
	}
}

// TestSettlementBodyMirrorsSettlement: every field of a settlement makes
// its way through the stored form and back, so a field added to Settlement
// and not to its stored form is noticed.
func TestSettlementBodyMirrorsSettlement(t *testing.T) {
	to, at := int64(4), time.Date(2026, 3, 13, 19, 0, 0, 0, time.UTC)
	st := ledger.Settlement{}
	fill(reflect.ValueOf(&st).Elem())
	st.Rules = json.RawMessage(`{"preset":"dk"}`)
	st.Stake, st.Players[0].Points = pts("1/2"), pts("-7/2")
	st.Payouts[0].To, st.Transfers[0].To, st.Transfers[0].PaidAt, st.CreatedAt = &to, &to, &at, &at
	body, err := ledger.SettlementBody(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ledger.ParseSettlementBody(body)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, st) {
		t.Errorf("through the stored form\n%+v\ncomes back as\n%+v", st, back)
	}
}

// fill sets every settable field of v to a value other than its zero:
// numbers 1 and up, strings, true, one-element slices of filled elements.
func fill(v reflect.Value) {
	n := int64(1)
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(time.Time{}) || !v.Field(0).CanSet() {
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Int, reflect.Int64:
			v.SetInt(n)
			n++
		case reflect.Bool:
			v.SetBool(true)
		case reflect.String:
			v.SetString("s" + string(rune('a'+n%26)))
			n++
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return
			}
			s := reflect.MakeSlice(v.Type(), 1, 1)
			walk(s.Index(0))
			v.Set(s)
		case reflect.Pointer:
			if v.Type().Elem().Kind() == reflect.Int64 {
				p := reflect.New(v.Type().Elem())
				walk(p.Elem())
				v.Set(p)
			}
		}
	}
	walk(v)
}
