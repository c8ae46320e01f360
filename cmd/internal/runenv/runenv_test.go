package runenv

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger/postgres/cluster"
)

func TestTailBufferKeepsTheEnd(t *testing.T) {
	var b TailBuffer
	for i := range 3000 { // the last: 'a'+2999%26 = 'j'
		b.Write([]byte{byte('a' + i%26), '\n'})
	}
	s := b.String()
	if len(s) > 8<<10 || !strings.HasSuffix(s, "\ni\nj\n") {
		t.Errorf("kept %d bytes ending %q", len(s), s[len(s)-4:])
	}
}

func TestLoggerAndSettings(t *testing.T) {
	env := map[string]string{"LOG_LEVEL": "warn", "LOG_FORMAT": "json", "STICHBUCH_DATA": "/srv/stichbuch"}
	getenv := func(k string) string { return env[k] }
	var out bytes.Buffer
	log := NewLogger(getenv, &out)
	log.Info("hidden")
	log.Warn("shown")
	if got := out.String(); strings.Contains(got, "hidden") || !strings.HasPrefix(got, `{"time":`) {
		t.Errorf("logged %q", got)
	}
	if DataDir(getenv) != "/srv/stichbuch" || DataDir(func(string) string { return "" }) != DefaultDataDir {
		t.Error("DataDir ignores STICHBUCH_DATA or its default")
	}
	if EnvOr(getenv, "STICHBUCH_ADDR", ":8080") != ":8080" {
		t.Error("EnvOr without a value")
	}
}

// TestRefusalSaysWhatToDo: each refusal names the holder, its pid and the
// way out.
func TestRefusalSaysWhatToDo(t *testing.T) {
	serve := cluster.Holder{PID: 4711, Command: "stichbuch serve", Shared: true, Since: time.Now()}
	export := cluster.Holder{PID: 4712, Command: "stichbuch export", Since: time.Now()}
	for _, c := range []struct {
		holder cluster.Holder
		role   Role
		want   []string
	}{
		{serve, Server, []string{`in use by "stichbuch serve" (pid 4711`, "a second serve", "kill -TERM 4711", "--data"}},
		{export, Server, []string{`in use by "stichbuch export" (pid 4712`, "wait until it has ended", "start serve again"}},
		{export, Operator, []string{`in use by "stichbuch export" (pid 4712`, "only stichbuch serve shares", "run this command again"}},
		{cluster.Holder{}, Operator, []string{"in use by another process", "try again"}},
	} {
		err := refusal(&cluster.InUseError{DataDir: "/srv/stichbuch", Holder: c.holder}, c.role)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q does not say %q", err, w)
			}
		}
	}
}

func TestDatabaseURLIsUsedAsGiven(t *testing.T) {
	db, err := OpenDatabase(context.Background(), Server, "stichbuch serve", t.TempDir(), func(k string) string {
		if k == "DATABASE_URL" {
			return "postgres://db.example/stichbuch"
		}
		return ""
	}, NewLogger(func(string) string { return "" }, &bytes.Buffer{}))
	if err != nil || db.URL != "postgres://db.example/stichbuch" || db.Postmaster() != 0 {
		t.Fatalf("%+v, %v", db, err)
	}
	db.Close()
}
