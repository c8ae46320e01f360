package ledger

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// A report link is a stable address of one session's report that a
// browser opens without an Authorization header (a treasurer keeps it,
// prints from it, opens it again): it names the club, the key it was made
// with and the session, and is signed with that key's stored hash, so
// nobody without the database makes one, and it is authorised like the
// key: it stops when the key is revoked, and reaches what the key
// reaches (a table key's links only its table's sessions).
const reportLinkPrefix = "sbr_"

// ReportLink returns the token of the stable report link of a session for
// the actor's key. The same key and session give the same token.
func (s *Service) ReportLink(ctx context.Context, a Actor, sessionID int64) (string, error) {
	if _, err := s.Tables.FindSession(ctx, a.ClubID, sessionID); err != nil {
		return "", wrap(err, "ReportLink: FindSession")
	}
	k, err := s.Clubs.FindKey(ctx, a.ClubID, a.KeyID)
	if err != nil {
		return "", wrap(err, "ReportLink: FindKey")
	}
	return reportToken(a.ClubID, a.KeyID, sessionID, k.Hash), nil
}

// OpenReportLink resolves a report link's token to the actor of the key
// it was made with and the session it names. A token that is malformed,
// forged, or of a revoked key is ENOTFOUND alike (a link that no longer
// opens), with a German hint; the key's reach is checked as for any
// request of the session.
func (s *Service) OpenReportLink(ctx context.Context, token string) (Actor, int64, error) {
	gone := Errorf(ENOTFOUND, "report link not found: malformed, or its key was revoked").
		WithHint("Dieser Link zum Bericht gilt nicht (mehr): er ist unvollständig oder sein Gerät wurde abgemeldet. Bitte öffne den Bericht neu aus der App.")
	clubID, keyID, sessionID, ok := parseReportToken(token)
	if !ok {
		return Actor{}, 0, gone
	}
	k, err := s.Clubs.FindKey(ctx, clubID, keyID)
	if ErrorCode(err) == ENOTFOUND {
		return Actor{}, 0, gone
	}
	if err != nil {
		return Actor{}, 0, err
	}
	if k.RevokedAt != nil || !hmac.Equal([]byte(reportToken(clubID, keyID, sessionID, k.Hash)), []byte(token)) {
		return Actor{}, 0, gone
	}
	a := Actor{ClubID: clubID, KeyID: keyID, Role: k.Role}
	if k.TableID != nil {
		a.TableID = *k.TableID
	}
	if err := s.Reach(ctx, a, ScopeSession, sessionID); err != nil {
		if ErrorCode(err) == ENOTFOUND {
			return Actor{}, 0, gone
		}
		return Actor{}, 0, err
	}
	return a, sessionID, nil
}

// reportToken signs club, key and session with the key's stored hash.
func reportToken(clubID, keyID, sessionID int64, keyHash []byte) string {
	mac := hmac.New(sha256.New, keyHash)
	fmt.Fprintf(mac, "stichbuch report link %d/%d/%d", clubID, keyID, sessionID)
	return fmt.Sprintf("%s%d_%d_%d_%s", reportLinkPrefix, clubID, keyID, sessionID, base64.RawURLEncoding.EncodeToString(mac.Sum(nil)))
}

// parseReportToken reads club, key and session out of a token.
func parseReportToken(token string) (clubID, keyID, sessionID int64, ok bool) {
	rest, found := strings.CutPrefix(token, reportLinkPrefix)
	if !found {
		return 0, 0, 0, false
	}
	parts := strings.SplitN(rest, "_", 4) // the signature may hold "_"
	if len(parts) != 4 || len(parts[3]) != 43 {
		return 0, 0, 0, false
	}
	var ids [3]int64
	for i := range ids {
		n, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil || n < 1 {
			return 0, 0, 0, false
		}
		ids[i] = n
	}
	return ids[0], ids[1], ids[2], true
}
