package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// TestJoinFlow: a join code is exchanged once, before it expires, for a
// key of its role limited to its table; the key reaches that table alone.
func TestJoinFlow(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	other, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: "Freitag", Game: "schwarze_dame"}, nil)
	c.must(err)
	for _, nj := range []ledger.NewJoin{{TableID: c.table.ID, Role: ledger.RoleAdmin}, {TableID: c.table.ID, Role: ledger.RoleReader, TTLSeconds: 59},
		{TableID: c.table.ID, Role: ledger.RoleReader, TTLSeconds: 86401}} {
		if _, _, err := c.svc.CreateJoin(ctx, c.admin, nj); ledger.ErrorCode(err) != ledger.EINVALID {
			t.Errorf("CreateJoin(%+v): %v, want EINVALID", nj, err)
		}
	}
	if _, _, err := c.svc.CreateJoin(ctx, c.admin, ledger.NewJoin{TableID: 999, Role: ledger.RoleReader}); ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("a join for a table the club lacks: %v", err)
	}

	j, code, err := c.svc.CreateJoin(ctx, c.admin, ledger.NewJoin{TableID: c.table.ID, Role: ledger.RoleReader})
	c.must(err)
	if got := j.ExpiresAt.Sub(j.CreatedAt); got != ledger.DefaultJoinTTL*time.Second {
		t.Errorf("a join without ttl lives %v", got)
	}
	late := c.svc.WithClock(func() time.Time { return j.ExpiresAt })
	if _, _, err := late.RedeemJoin(ctx, code); ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("a code redeemed when it expires: %v, want ENOTFOUND", err)
	}
	k, secret, err := c.svc.RedeemJoin(ctx, code)
	c.must(err)
	if k.Role != ledger.RoleReader || k.TableID == nil || *k.TableID != c.table.ID {
		t.Fatalf("redeemed key %+v", k)
	}
	if _, _, err := c.svc.RedeemJoin(ctx, code); ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("a code redeemed twice: %v, want ENOTFOUND", err)
	}
	for _, bad := range []string{"", "sbj_", "sbj_0_x", code + "x", "sb" + code[3:]} {
		if _, _, err := c.svc.RedeemJoin(ctx, bad); ledger.ErrorCode(err) != ledger.ENOTFOUND {
			t.Errorf("RedeemJoin(%q): %v, want ENOTFOUND", bad, err)
		}
	}

	a, err := c.svc.Authenticate(ctx, secret)
	c.must(err)
	if a.TableID != c.table.ID || a.Role != ledger.RoleReader {
		t.Fatalf("the table key's actor: %+v", a)
	}
	reach := func(scope ledger.Scope, id int64) string { return ledger.ErrorCode(c.svc.Reach(ctx, a, scope, id)) }
	for _, r := range []struct {
		scope ledger.Scope
		id    int64
		want  string
	}{
		{ledger.ScopeTable, c.table.ID, ""}, {ledger.ScopeTable, other.ID, ledger.ENOTFOUND},
		{ledger.ScopeSession, c.session.ID, ""}, {ledger.ScopeSession, 999, ledger.ENOTFOUND},
		{ledger.ScopeShared, 0, ""}, {ledger.ScopeClub, 0, ledger.EFORBIDDEN},
	} {
		if got := reach(r.scope, r.id); got != r.want {
			t.Errorf("Reach(%v, %d): %q, want %q", r.scope, r.id, got, r.want)
		}
	}
	if err := c.svc.Reach(ctx, c.admin, ledger.ScopeClub, 0); err != nil {
		t.Errorf("a club key reaches the club: %v", err)
	}
	tables, err := c.svc.ListTables(ctx, a, ledger.Page{Limit: 2})
	c.must(err)
	if len(tables) != 1 || tables[0].ID != c.table.ID {
		t.Errorf("a table key lists %d tables", len(tables))
	}
	if more, err := c.svc.ListTables(ctx, a, ledger.Page{After: c.table.ID, Limit: 2}); err != nil || len(more) != 0 {
		t.Errorf("a table key's page after its table: %v, %d tables", err, len(more))
	}
}
