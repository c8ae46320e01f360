package ledger_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// TestPagesOfPlayersFollowTheirCursor: the players by name, two a page,
// each page after the last player seen, give every player once; a bad
// page is refused naming its field.
func TestPagesOfPlayersFollowTheirCursor(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	for _, name := range []string{"Erika", "Ahmet"} {
		_, _, err := c.svc.CreatePlayer(ctx, c.admin, name, nil)
		c.must(err)
	}
	var names []string
	p := ledger.Page{Limit: 2}
	for range 10 {
		page, err := c.svc.ListPlayers(ctx, c.admin, p)
		c.must(err)
		for _, pl := range page {
			names = append(names, pl.Name)
		}
		if len(page) < p.Limit {
			break
		}
		p.After = page[len(page)-1].ID
	}
	if want := []string{"Ahmet", "Anna", "Bernd", "Clara", "Dieter", "Erika"}; !reflect.DeepEqual(names, want) {
		t.Errorf("players page by page: %v, want %v", names, want)
	}
	_, err := c.svc.ListPlayers(ctx, c.admin, ledger.Page{After: -1})
	if e := wantCode(t, "a negative cursor", err, ledger.EINVALID); e.Field != "after" {
		t.Errorf("a negative cursor names %q, want after", e.Field)
	}
	_, err = c.svc.ListKeys(ctx, c.admin, ledger.Page{Limit: ledger.MaxPageLimit + 1})
	if e := wantCode(t, "a page too long", err, ledger.EINVALID); e.Field != "limit" {
		t.Errorf("a page too long names %q, want limit", e.Field)
	}
}
