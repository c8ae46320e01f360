package report

import (
	"strconv"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// kitty is how the club's kitty is named wherever a transfer or payout
// has no player on one side.
const kitty = "Kasse"

// formatEUR writes cents the German way, with a dot between thousands, a
// decimal comma, two decimals and the euro sign after a space:
// 123456 -> "1.234,56 €", -8000 -> "-80,00 €", 5 -> "0,05 €". It is exact
// for every int64, math.MinInt64 included.
func formatEUR(cents int64) string {
	neg, u := absUint(cents)
	buf := make([]byte, 0, 32)
	if neg {
		buf = append(buf, '-')
	}
	buf = appendGrouped(buf, u/100)
	rest := u % 100
	buf = append(buf, ',', byte('0'+rest/10), byte('0'+rest%10))
	return string(append(buf, " €"...))
}

// appendGrouped appends n in decimal with a dot between each group of
// three digits: 1234567 -> "1.234.567".
func appendGrouped(buf []byte, n uint64) []byte {
	digits := strconv.FormatUint(n, 10)
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			buf = append(buf, '.')
		}
		buf = append(buf, digits[i])
	}
	return buf
}

// absUint splits n into its sign and magnitude without overflowing on
// math.MinInt64.
func absUint(n int64) (neg bool, u uint64) {
	if n < 0 {
		return true, uint64(-(n + 1)) + 1
	}
	return false, uint64(n)
}

// formatPoints writes exact points the way a German score sheet does: a
// whole number as is ("-13"), anything else as a mixed number with the
// exact fraction ("4 2/3" for 14/3, "-3 1/2" for -7/2, "-2/3").
func formatPoints(p score.Points) string {
	if p.IsInt() {
		return strconv.FormatInt(p.Num(), 10)
	}
	neg, num := absUint(p.Num())
	den := uint64(p.Den())
	buf := make([]byte, 0, 24)
	if neg {
		buf = append(buf, '-')
	}
	if whole := num / den; whole > 0 {
		buf = strconv.AppendUint(buf, whole, 10)
		buf = append(buf, ' ')
	}
	buf = strconv.AppendUint(buf, num%den, 10)
	buf = append(buf, '/')
	return string(strconv.AppendUint(buf, den, 10))
}

// formatDate turns a session date "2026-11-21" into "21.11.2026"; a date
// it cannot read is returned unchanged rather than lost.
func formatDate(iso string) string {
	d, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return iso
	}
	return d.Format("02.01.2006")
}

// formatPaidAt gives the day a transfer was marked paid, in the club's
// time zone when it is known ("" when t is nil).
func formatPaidAt(t *time.Time, zone string) string {
	if t == nil {
		return ""
	}
	if loc, err := time.LoadLocation(zone); zone != "" && err == nil {
		return t.In(loc).Format("02.01.2006")
	}
	return t.Format("02.01.2006")
}

// gameName is the German name of a registry game, as its engine states
// it, or the registry name itself for a game the registry does not know.
func gameName(game string) string {
	if e, ok := games.Lookup(game); ok {
		return e.DisplayName()
	}
	return game
}

// modeNames explain the settle-up modes in a sentence.
var modeNames = map[ledger.SettleMode]string{
	ledger.SettleTransfers:     "Spieler zahlen einander",
	ledger.SettleKitty:         "Jeder rechnet mit der Kasse ab",
	ledger.SettleLosersToKitty: "Verlierer zahlen in die Kasse",
}

// modeName explains a settle-up mode, or returns it as is when unknown.
func modeName(mode ledger.SettleMode) string {
	if n, ok := modeNames[mode]; ok {
		return n
	}
	return string(mode)
}

// modeText says how the evening's money changes hands as it actually
// does: a table that settles by transfers but whose money all goes
// through the kitty (Schwarze Sau: minus points and payouts to the kitty)
// says so instead of "Spieler zahlen einander".
func modeText(st ledger.Settlement) string {
	var between, kitty bool
	for _, p := range st.Players {
		between = between || p.BetweenPlayersCents != 0
		kitty = kitty || p.WithKittyCents != 0
	}
	switch {
	case st.Mode == ledger.SettleTransfers && kitty && !between:
		return "Alles wird mit der Kasse abgerechnet"
	case st.Mode == ledger.SettleTransfers && kitty:
		return "Spieler zahlen einander; was der Kasse zusteht, geht an die Kasse"
	}
	return modeName(st.Mode)
}

// yesNo is "ja" or "nein", as a German spreadsheet reads a flag.
func yesNo(b bool) string {
	if b {
		return "ja"
	}
	return "nein"
}
