package ledger

import (
	"encoding/json"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Terms are a table's settings for an evening: the resolved rule set its
// hands are scored under, the stake, the settle-up mode and what each
// loser of a Klaberjass match pays.
type Terms struct {
	Rules          json.RawMessage `json:"rules"`
	Stake          score.Points    `json:"stake_cents_per_point"`
	SettleMode     SettleMode      `json:"settle_mode"`
	MatchLossCents int64           `json:"match_loss_cents"`
}

// Terms are the table's current settings: those of its next evening.
func (t Table) Terms() Terms {
	return Terms{Rules: t.Rules, Stake: t.Stake, SettleMode: t.SettleMode, MatchLossCents: t.MatchLossCents}
}

// Under returns the table as an evening played under terms sees it: its
// rule set, stake, settle mode and match price are the terms', whatever
// the table's current settings are.
func (t Table) Under(terms Terms) Table {
	t.Rules, t.Stake, t.SettleMode, t.MatchLossCents = terms.Rules, terms.Stake, terms.SettleMode, terms.MatchLossCents
	return t
}

// CheckTerms refuses terms an evening of game cannot be played and
// settled under: a stake, settle mode or match price no table may have
// (the limits NewTable.Validate keeps), or a rule set that is not a
// complete rule set of the game (CheckRules). The terms need not be the
// table's current settings: those apply from its next evening on.
func CheckTerms(game string, t Terms) error {
	if err := checkMoneyTerms(t.Stake, t.SettleMode, t.MatchLossCents); err != nil {
		return err
	}
	return CheckRules("rules", game, t.Rules)
}

// checkMoneyTerms refuses a stake, settle mode or match price out of the
// ledger's limits: what a table and an evening may be settled with.
func checkMoneyTerms(stake score.Points, mode SettleMode, matchLossCents int64) error {
	if err := CheckStake(stake); err != nil {
		return err
	}
	if err := mode.Validate("settle_mode"); err != nil {
		return err
	}
	if matchLossCents < 0 || matchLossCents > MaxMatchLossCents {
		return Invalid("match_loss_cents", "must be between 0 and %d", MaxMatchLossCents)
	}
	return nil
}

// CheckRules refuses, naming field, a rule set the game does not resolve
// from one of its presets with options: the rule set must name its
// preset, every member that differs from the preset must be an option a
// table may set, with a value the game allows, and no member may be
// missing or added. A rule set that passes is one some table of the game
// could have been created with.
func CheckRules(field, game string, rules json.RawMessage) error {
	var members map[string]json.RawMessage
	if json.Unmarshal(rules, &members) != nil || members == nil {
		return Invalid(field, "must be a %s rule set, a JSON object", game)
	}
	var preset string
	if json.Unmarshal(members["preset"], &preset) != nil || preset == "" {
		return Invalid(field+".preset", "must name the preset the rule set was resolved from")
	}
	base, err := ResolveRules(game, preset, nil)
	if err != nil {
		return Invalid(field+".preset", "%s", AsError(err).Rule)
	}
	var defaults map[string]json.RawMessage
	if err := json.Unmarshal(base, &defaults); err != nil {
		return err
	}
	options := map[string]json.RawMessage{}
	for name, v := range members {
		if d, ok := defaults[name]; name != "preset" && (!ok || !SameJSON(d, v)) {
			options[name] = v
		}
	}
	raw, err := json.Marshal(options)
	if err != nil {
		return err
	}
	resolved, err := ResolveRules(game, preset, raw)
	if err != nil {
		e := AsError(err)
		return Invalid(field+strings.TrimPrefix(e.Field, "options"), "%s: no table of the %s preset %q can have it", e.Rule, game, preset)
	}
	if !SameJSON(resolved, rules) {
		return Invalid(field, "is not a complete %s rule set: the preset %q with its options resolves to %s", game, preset, resolved)
	}
	return nil
}

// FieldHelp is the German help line of one of a table's settings, as the
// table's form shows it beside the field.
type FieldHelp struct {
	Name          string `json:"name"`
	DescriptionDE string `json:"description_de"`
	// Games are the games the setting is for; empty: every game.
	Games []string `json:"games,omitempty"`
}

// TableFieldsHelp are the help lines of a table's settings beside its
// game's presets and options (which the game's catalogue describes).
var TableFieldsHelp = []FieldHelp{
	{Name: "preset", DescriptionDE: "Das Regelwerk des Tisches; die Optionen ändern einzelne Regeln davon. Leer: das übliche des Spiels."},
	{Name: "stake_cents_per_point", DescriptionDE: "Einsatz je Punkt in Cent: eine ganze Zahl, ein Bruch wie 1/2 oder mit Komma wie 0,5 (ein halber Cent je Punkt). 0 spielt ohne Geld."},
	{Name: "settle_mode", DescriptionDE: "Wie am Ende des Abends abgerechnet wird: Spieler zahlen einander (transfers), alle über die Kasse (kitty) oder nur die Verlierer in die Kasse (losers_to_kitty)."},
	{Name: "match_loss_cents", DescriptionDE: "Was jeder Verlierer einer Partie den Gewinnern zahlt, in Cent (50 sind 50 Cent).", Games: []string{"klaberjass"}},
}
