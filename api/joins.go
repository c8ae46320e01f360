package api

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"github.com/stichbuch/stichbuch/ledger"
)

// joinLink is the path of the web app's page that redeems code: the link
// (and its QR code) carries the one-time code, never a key.
func joinLink(code string) string { return "/?join=" + url.QueryEscape(code) }

// createJoin makes a one-time join code for a table, with its link and
// the QR code of the absolute link, on the address linkBase chooses.
func (s *Server) createJoin(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Role       ledger.Role `json:"role"`
		TTLSeconds int         `json:"ttl_seconds"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	j, code, err := s.svc.CreateJoin(c.Request().Context(), actorOf(c), ledger.NewJoin{TableID: tableID, Role: in.Role, TTLSeconds: in.TTLSeconds})
	if err != nil {
		return err
	}
	link := joinLink(code)
	base, reachable, notice := s.linkBase(c)
	svg, err := qrSVG(base + link)
	if err != nil {
		return err
	}
	answer := map[string]any{
		"code": code, "role": j.Role, "table_id": j.TableID, "expires_at": j.ExpiresAt.UTC().Format(time.RFC3339),
		"link": link, "url": base + link, "qr_svg": svg, "reachable": reachable,
	}
	if notice != "" {
		answer["notice"] = notice
	}
	return created(c, false, fmt.Sprintf("/v1/tables/%d", j.TableID), answer)
}

// The German notices of an invitation, for the admin who shows it.
const (
	noticeLoopbackOnly = "Kein anderes Handy erreicht diesen Dienst: er hört nur auf diesem Rechner (localhost). " +
		"Damit die Handys am Tisch ihn öffnen können, starte ihn mit »stichbuch serve --addr 0.0.0.0:8080« " +
		"oder gib mit »--public-url« die Adresse an, unter der sie ihn erreichen."
	noticePlainHTTP = "Die Einladung führt über HTTP, nicht HTTPS: das Handy zählt mit, " +
		"lädt die Seite ohne Netz aber nicht neu. Wie HTTPS eingerichtet wird, steht im README unter »HTTPS«."
)

// linkBase is the scheme and host an invitation's link carries, so that
// the invited phone can open it: the public URL when serve has one; else
// the address the inviting browser used, unless that is this machine's
// loopback (the admin on the laptop itself), then the machine's network
// address. When there is none, reachable is false and notice says why in
// German; a plain-HTTP link has a notice too.
func (s *Server) linkBase(c echo.Context) (base string, reachable bool, notice string) {
	n := s.cfg.Network
	o := s.originOf(c)
	switch {
	case n.PublicURL != "":
		base = strings.TrimSuffix(n.PublicURL, "/")
	case !hostIsLoopback(o.host):
		base = o.scheme + "://" + o.host
	case n.NetworkURL != "":
		base = strings.TrimSuffix(n.NetworkURL, "/")
	default:
		return o.scheme + "://" + o.host, false, noticeLoopbackOnly
	}
	if strings.HasPrefix(base, "http://") {
		notice = noticePlainHTTP
	}
	return base, true, notice
}

// redeemJoin exchanges a join code for a key limited to its table. It
// needs no key (it is a phone's first call); a code that is not redeemed
// counts as a failed authentication of the client's address.
func (s *Server) redeemJoin(c echo.Context) error {
	code := c.Param("code")
	k, secret, err := s.svc.RedeemJoin(c.Request().Context(), code)
	if ledger.ErrorCode(err) == ledger.ENOTFOUND {
		s.failures.failed(code, "", c.RealIP())
	}
	if err != nil {
		return err
	}
	return created(c, false, fmt.Sprintf("/v1/keys/%d", k.ID), map[string]any{
		"key_id": k.ID, "key": secret, "role": k.Role, "table_id": *k.TableID, "club_id": k.ClubID,
	})
}

// unkeyed is the guard of a /v1 route that takes no key: the limit of
// failed authentications of the client's address first (429 before any
// lookup), then the body and the contract, as guard does.
func (s *Server) unkeyed() echo.MiddlewareFunc {
	validate := validateRequests(s.router)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		checked := limitBody(validate(next))
		return func(c echo.Context) error {
			if wait, limited := s.failures.limited("", "", c.RealIP()); limited {
				return retryAfter(c, wait, ledger.Errorf(codeRateLimit,
					"too many failed attempts from this address; retry after %d s", seconds(wait)))
			}
			return checked(c)
		}
	}
}

// qrQuiet is the QR code's quiet zone, in modules, as the standard asks.
const qrQuiet = 4

// qrSVG draws text's QR code (error correction M) as an SVG of its
// modules, black on white, one unit a module.
func qrSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return "", err
	}
	n := code.Size + 2*qrQuiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+qrQuiet, y+qrQuiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}
