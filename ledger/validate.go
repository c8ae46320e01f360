package ledger

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// CheckName refuses empty, overlong and control-character names.
func CheckName(field, name string, max int) error {
	if name == "" {
		return Invalid(field, "must not be empty")
	}
	if !utf8.ValidString(name) {
		return Invalid(field, "must be valid UTF-8")
	}
	if utf8.RuneCountInString(name) > max {
		return Invalid(field, "at most %d characters", max)
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return Invalid(field, "must not contain control characters")
	}
	if strings.ContainsRune(name, utf8.RuneError) {
		// What a decoder makes of invalid UTF-8 or a lone surrogate.
		return Invalid(field, "must be valid UTF-8 text (it contains the replacement character U+FFFD)")
	}
	return nil
}

// TrimName trims a name of surrounding white space and checks it as
// CheckName does: the name a create flow stores.
func TrimName(field, name string, max int) (string, error) {
	name = strings.TrimSpace(name)
	return name, CheckName(field, name, max)
}

// StakeHint says the players how to write a stake.
const StakeHint = "Gib den Einsatz je Punkt in Cent an, von 0 bis 100000: eine ganze Zahl, ein Bruch wie 1/2 oder mit Komma wie 0,5 (ein halber Cent)."

// MaxStake bounds a table's stake: 1.000 € per point, in at most
// thousandths of a cent, so money can never overflow.
var MaxStake = score.Int(100_000)

// CheckStake refuses a negative, huge or too finely divided stake.
func CheckStake(stake score.Points) error {
	if stake.Sign() < 0 || stake.Cmp(MaxStake) > 0 || stake.Den() > 1000 {
		return Refuse("stake_cents_per_point", StakeHint, "must be between 0 and 100000 cents per point, in steps of at least 1/1000 cent, got %s", stake)
	}
	return nil
}
