// Package doppelkopf scores Doppelkopf as README.md in this package reads
// it: four active players out of 4 to 7 seated, 240 Augen. Two presets:
// `house` (the seed's house rules, where announcements double) and `ddv`
// (the DDV tournament valuation, where announcements add). The winner is
// found by TSR 7.1 under both. The table remembers the next dealer, the
// Bock rounds and the solos played per player in the current session;
// Engine.Preview shows that state as the next hand of a session finds it.
//
// TSR is the Turnier-Spielregeln of the Deutscher Doppelkopf-Verband, here
// the newest version found: "TSR, Stand 21.02.2026"
// (https://doko-verband.de/wp-content/uploads/2026/04/Turnierspielregeln-Stand-2026-02-21.pdf,
// read in the text copy Dokumente/Turnierspielregeln-Stand-2026-02-21.txt of
// github.com/mannewolff/doppelkopf). By its section 11 it has been in force
// since 1 July 2000 with changes to 2.1.3, 4.4.3, 5, 6, 8.2 and 9 only; its
// section 7 (Spielbewertung) is that of 2000.
//
// # Deck
//
// Option `nines` chooses the pack. Off (`house`): the seed's 40 cards
// without nines, 10 tricks. On (`ddv`): the DDV's 48 cards with nines (TSR
// 2.2), 12 tricks. A rule set stored before the option existed plays with 40
// cards. Both packs hold 240 Augen; every refusal that depends on the pack
// names it ("with 48 cards (nines) ...", "with 40 cards (no nines) ...").
//   - With 40 cards every trick holds at least 8 Augen (four Buben), so a
//     party has 0 Augen exactly when it took no trick: Augen 1..7 and
//     233..239 are refused, and `took_trick` may be omitted (it is derived
//     from the Augen); when given it must agree.
//   - With 48 cards a trick of four nines holds 0 Augen, so any split of the
//     240 Augen that cards can make may be recorded: every one but 1:239
//     (the smallest card worth anything is a Bube, 2). A party with Augen
//     took a trick; a party
//     with 0 Augen may still have taken one or two tricks of nines, so for
//     it the facts must say so (`took_trick`, or `tricks`), else the hand is
//     refused.
//   - `tricks` (optional, each party) counts a party's tricks; given for one
//     party, the other's are the rest. The Augen must fit them: t tricks
//     hold exactly what some 4t cards of the pack hold, the other party
//     the rest (with 48 cards: 0 Augen in at most 2 tricks, at most 44
//     Augen in 1 and never 38 or 39, never 201 or 202 in 11; with 40 cards
//     one trick never holds 31, 38 or 39).
//   - Schwarz is judged by tricks, not Augen: a party that took no trick is
//     schwarz (for the "schwarz" point and the Absage "schwarz"); with 48
//     cards a party with 0 Augen and a trick of nines is not.
//   - Only Asse and Zehnen make a trick of 40 Augen (a Doppelkopf), so a
//     hand holds at most 4 Doppelköpfe. A Fuchs can be caught only where the
//     Karo-Ass is trump (normal, Hochzeit, Armut, stille Hochzeit,
//     Karo-Solo), a Karlchen only where the Kreuz-Bube is trump (not in a
//     Damensolo or Fleischloser). Special points need a trick of the party
//     that scores them.
//   - With 48 cards a party's Augen and tricks must hold its Doppelköpfe,
//     Füchse and Karlchen, counted by the cards: each Doppelkopf is a trick
//     of four Asse or Zehnen (1 or 2 need 40 Augen each, 3 need 124, 4 need
//     168); a Fuchs caught is a Karo-Ass (11) in a Doppelkopf or in a trick
//     won by at least a Bube (13 Augen, 24 for both Füchse); the Karlchen is
//     the Kreuz-Bube (2) in the party's last trick, which may also be the
//     trick of its Füchse; and the other party keeps what its own need.
//   - With 40 cards the house rules' bounds stay as they were, so that
//     stored hands stay valid: 40 Augen for each Doppelkopf, a trick for a
//     Fuchs or the Karlchen (the exact bounds for 3 and 4 Doppelköpfe, 124
//     and 168, are not applied there); given tricks must hold the
//     Doppelköpfe and leave a trick for a Fuchs or Karlchen outside them.
//
// # No winner
//
// When both parties made Absagen and neither reached its goal, nobody won
// (TSR 7.1.3). Option `no_winner_unter_gespielt` chooses how such a hand is
// valued; each point goes to the party that earned it and they are netted
// into "Spielwert für Re":
//   - On (`ddv`): TSR 7.1.3, Stand 21.02.2026: "Erreichen beide Parteien
//     ihr abgesagtes Ziel nicht, hat keine Partei gewonnen, und es werden
//     nur die unter 7.2.2 (a) und 7.2.2 (e und f) genannten Punkte sowie
//     Sonderpunkte vergeben." So 7.2.2 (a) without "gewonnen": "unter 90
//     (60, 30) gespielt" to the party whose opponents stayed under 90 (60,
//     30) ("schwarz gespielt" cannot happen: a party that took every trick
//     reached its goal); under ddv 7.2.2 (e) and (f), "120 gegen keine 90"
//     and its kin; and the special points (not "gegen die Kreuz-Damen",
//     which needs a win). No Re, Kontra or Absage points (7.1.3 "nur";
//     6.3.3).
//   - Off (`house`, and every rule set stored before the option): 7.2.2 (a)
//     is left out; under ddv the points reached against an Absage and the
//     special points count, under house the special points only. This was
//     the engine's reading of the TSR text valid from 1 July 2000 as
//     transcribed in github.com/svenihoney/freedoko
//     (doc/de/DDV_Turnierregeln.tex), which has no 7.1.3, only the sentence
//     now numbered 6.3.3 that Absagen then do not raise the value. By the
//     2026 text's section 11, section 7 has not changed since 2000, so the
//     transcription most likely left 7.1.3 out.
//
// The readings differ only where a party stayed under 90 (60, 30), which
// takes Absagen of different heights or, with 48 cards, a trick of nines:
// when both parties said keine 90, both hold 90 to 150 Augen.
//
// # Tournament play
//
// Option `turnier` (off in both presets; the tables of a tournament evening
// have it with `ddv`) plays each session as one Spielrunde of the TSR. The
// paragraphs are those of the TSR, Stand 21.02.2026, and read the same in
// the text valid from 1 July 2000:
//   - The table seats four: "Es wird ausschließlich an Vierer-Tischen
//     gespielt" (8.3.1); five to seven seated are refused.
//   - Position 1, the first seated player, deals the session's first hand
//     (3.3.1, 8.4.1), whoever the state proposed from an earlier session.
//   - An announced solo (Farbsolo, Köhler, Damensolo, Bubensolo,
//     Fleischloser) is a Pflichtsolo or a Lustsolo: its Vorbehalt is
//     "getauft" as one of them (4.1.4), so `solo_kind` (`pflicht` or `lust`)
//     is then required, and refused for any other game and without the
//     option. A stille Hochzeit and a Hochzeit without partner are scored
//     as solos but "ersetzt jedoch ein noch nicht gespieltes Pflichtsolo
//     nicht, so dass es bei den Normalspielen notiert wird" (4.4.3 b,
//     4.4.5): no `solo_kind`.
//   - "Jeder Spieler muss ein Pflichtsolo innerhalb der Spielrunde
//     absolvieren" (4.2.3, 8.6): one per player and session; his further
//     solos are Lustsoli, and "Ein Lustsolo darf erst dann gespielt werden,
//     wenn das eigene Pflichtsolo bereits gespielt wurde" (4.3.1). The
//     state lists `pflichtsoli`, who played his this session, in order.
//   - After a Pflichtsolo the same dealer deals again; after a vorgeführt
//     one, and after a Lustsolo (4.3.2), the next (3.3.1, 4.2.5). Each
//     counts as one of the session's `games` (a round's 24 hold the four
//     Pflichtsoli, as 10.2.1 reckons).
//   - `vorgefuehrt` marks a Pflichtsolo that was vorgeführt (4.2.3, 4.1.9):
//     it must be the player who still owes his Pflichtsolo and sits next
//     to the dealer's left, the dealer himself last ("Kartengeber ist
//     derjenige Spieler, der das nächste Spiel geben müsste, auch wenn er
//     selbst vorgeführt wird"); Vorgefuehrt names him. When a Vorführung is
//     due (as many Pflichtsoli owed as games left, or the playing time is
//     up, 8.6) the engine cannot know: the number of games and the time are
//     the tournament's (ledger/tournament.go), as is the ranking.
//   - The soloist of a Pflichtsolo leads to the first trick (4.2.2);
//     otherwise the dealer's left neighbour, who began the
//     Vorbehaltsabfrage (4.1.2, 5.1.1), leads, in a Lustsolo too (4.3.1).
//
// Values are unchanged: a Pflichtsolo and a Lustsolo are scored as every
// solo (7.2.4), and a Pflichtsolo is noted in its own column of the
// Spielliste, a Lustsolo with the normal games (4.2.4, 4.3.2), which the
// statistics keys below tell the ledger.
//
// The tournament evening around the tables (ledger.Tournament) keeps the
// rest of TSR 8 and 7.3:
//   - "Eine Spielrunde besteht aus 24 Spielen" (8.5.1): a round has a
//     fixed number of games per table, 24 unless the tournament says
//     otherwise; redeals do not count. The organizer gives each round's
//     seating per table (8.4).
//   - Vorführung (4.2.3): "Ist die Anzahl der nicht gespielten Pflichtsoli
//     gleich der Anzahl der noch zu absolvierenden Spiele", the next hand
//     must be the Pflichtsolo of the player named above, vorgeführt; any
//     other hand is refused. The TSR sets no points for a Pflichtsolo not
//     played: the Vorführung is its consequence, a solo the player must
//     play whatever his cards.
//   - The organizer may end a round's playing time (8.5.1, 100 minutes in
//     the TSR; the clock is the organizer's): outstanding games are struck,
//     and "stehen noch Pflichtsoli aus, müssen die betreffenden Spieler ihr
//     Pflichtsolo noch spielen; d.h. sie werden vorgeführt" (8.6).
//   - A round is complete at a table when its games are played (or its
//     time is up) and every Pflichtsolo is played; only then the next round
//     opens and the table's session may close.
//   - The Spielliste (7.3) lists every game as it ends: its value, every
//     player's points and running total, the players with plus points
//     marked (7.3.3 Nr. 3), a Pflichtsolo in its own column (4.2.4), and
//     the checks of 7.3.3 (the points sum to 0, the totals all even or all
//     odd).
//   - The ranking sums each player's points over the rounds. The TSR
//     defines no tournament points and no tie-break; equal sums share a
//     place.
//
// Not built: tables of five to seven (TSR 10, 30 games at a Fünfer-Tisch
// with the dealer sitting out; tournament tables seat four); a clock for
// the 100 minutes of 8.5.1 (the organizer ends the time); the Vorbehalt's
// order (4.1.5 to 4.1.8; a hand records the game played, not the asking);
// the Schiedsrichter and the penalty points for rule violations (8.2, 9.3,
// 9.4; a revoke is recorded as verworfen_by, the penalties are not);
// repeated games after the time (8.5.3). Köhler is no solo of the TSR
// (2.3.3) but stays allowed, as under ddv.
//
// # Other decisions
//
// Decisions where the rules are silent:
//   - Facts name the Re party (players and Augen); the Kontra party is the
//     other active players with 240 minus Re's Augen. Kontra's players and
//     Augen may be given as well and must then agree.
//   - Schweinchen may be recorded only with option `schweinchen` and only in
//     a game where the Karo-Ass is trump; then at most one Fuchs is caught.
//   - A Hochzeit whose Re party is one player found no partner and is the
//     Hochzeit player's solo. A stille Hochzeit and such a Hochzeit solo are
//     scored as solos (x3, no Bock, Solo verloren) but do not count in the
//     solos per player, which count announced solos only (the lead right of
//     a player's first solo comes with an announced solo).
//   - Absagen count per party: when both parties said keine 90, that is two
//     points.
//   - `herzstich` says whether a Herzstich happened; two Herzstiche (possible
//     in a Damensolo, Bubensolo or Fleischloser) trigger one Bock round.
//   - When neither party reached its goal, "an announced Kontra was lost"
//     does not trigger Bock (nobody won); both parties announced, so the
//     "Re and Kontra announced" trigger fires anyway.
//   - Seating: the four players to the dealer's left (the next four seats
//     after the dealer, in seating order) play; the others sit out. With
//     five seated the dealer sits out; with six the dealer and the player
//     to his right; with seven the dealer and the two players to his right.
//     With four seated the dealer plays. The deal passes to the next seat
//     after every counted hand; a redeal is dealt by the same dealer. When
//     the next dealer is not seated (another session, other players), the
//     first seated player deals.
//   - Bock rounds are table state and carry over into the next session. A
//     queued round starts as soon as the running one is over, so the state
//     after a trigger already shows its Bock games; its length is fixed
//     then (`bock_round_length`, 0 = the players seated at that moment).
//     With option `bock` off nothing is doubled or queued and the Bock
//     state is left as it was.
//   - The options apply under both valuations: under `ddv`
//     `gegen_die_alten_in_solo` gives the "gegen die Kreuz-Damen" point in a
//     solo, and `solo_verloren` adds the house point. `revoker_pays_alone`
//     (house true, ddv false) says whether a revoker carries his party's
//     whole loss; under ddv by default the revoker's party loses as a
//     party.
//   - The value of a hand may turn negative through special points; it is
//     settled as it stands (the losers then gain). When nobody won a solo,
//     the netted points d (see "No winner") settle like a solo (TSR 7.2.4):
//     the soloist 3d, each opponent -d.
//   - A revoke decides the winner under both presets (the revoker's party
//     loses); the Augen, announcements and special points count as
//     recorded.
//   - Lines: the value items in the order the preset applies them, Absagen
//     and special points naming their party ("keine 90 angesagt (Re)",
//     "Fuchs gefangen (Kontra)"), then "Spielwert" (or "Spielwert für Re"
//     when nobody won), then one "=" line per active player with his points
//     ("Re", "Kontra", "Solist", "Gegenspieler", marked "(verworfen)" for a
//     revoker).
//
// Winners of a hand (for statistics) are the players of the party that won;
// none when neither party reached its goal, none for a redeal.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat and then by key; Count is 1 unless said. Only the keys that apply
// to the hand are given, and a "won" key needs a winning party:
//   - solo_played and solo_played_<type> for the soloist of every solo,
//     solo_won and solo_won_<type> when he won it. <type> is
//     farbsolo_kreuz, farbsolo_pik, farbsolo_herz, farbsolo_karo (the
//     Trumpfsolo), koehler, damensolo, bubensolo, fleischloser,
//     stille_hochzeit, or hochzeit (a Hochzeit without partner). A stille
//     Hochzeit and a Hochzeit without partner are solos here, as in
//     scoring (the per-session solo count of the state leaves them out).
//   - re_said for each player of the Re party when Re announced (any
//     level), re_said_won when Re won; kontra_said and kontra_said_won
//     likewise for the Kontra party.
//   - absage_said for each player of a party that made an Absage, Count
//     the levels said (keine 90 is 1, keine 60 is 2, keine 30 is 3,
//     schwarz is 4); absage_won when that party won.
//   - bock_game for each of the four players of a Bock game.
//   - hochzeit for the Hochzeit player (also when no partner was found),
//     armut for the poor player. The facts have no field of their own for
//     them: they are the first player named in facts.re.players.
//   - schweinchen for the player who announced Schweinchen.
//   - redeal for the dealer of a redeal (schmeissen, armut_nicht_genommen);
//     a redeal gives no other key.
//   - Under option turnier: pflichtsolo for the soloist of a Pflichtsolo
//     (with pflichtsolo_vorgefuehrt when it was vorgeführt), lustsolo for
//     the soloist of a Lustsolo, and aufspiel for the player who led to the
//     first trick of every played hand.
//
// Result.Parties is the Re party and the Kontra party, each in seating
// order, for every played hand (a solo: the soloist alone, then his three
// opponents); a redeal has none.
//
// Result.Dealer is the hand's dealer: facts.dealer, or the state's next
// dealer when the facts leave him out. Result.Players are the hand's four
// active players in seating order (the dealer is not among them when five
// or more are seated); a redeal names the four it was dealt to.
package doppelkopf
