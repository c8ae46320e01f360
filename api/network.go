package api

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// Network is how phones reach the service, as serve set it up: the
// address to put in links, the proxies whose forwarding headers count, and
// whether HTTPS is configured (here or at a trusted proxy).
type Network struct {
	// PublicURL is the address phones open (--public-url, or the domain
	// of the service's certificate): every invitation carries it.
	PublicURL string
	// NetworkURL is the machine's network address when the service
	// listens beyond loopback ("" when it does not): an invitation made
	// from a browser on the machine itself carries it.
	NetworkURL string
	// TrustedProxies are the addresses whose Forwarded, X-Forwarded-Proto,
	// X-Forwarded-Host and X-Forwarded-For headers are believed; anyone
	// else's are ignored.
	TrustedProxies []netip.Prefix
	// HTTPS says that HTTPS is configured: a request that came over plain
	// HTTP from elsewhere than this machine is redirected to HTTPS before
	// anything reads it, and HTTPS answers carry HSTS.
	HTTPS bool
}

// hsts is the Strict-Transport-Security of every HTTPS answer: browsers
// keep to HTTPS for a year. Not includeSubDomains: a club's domain may
// have other hosts that are none of this service's business.
const hsts = "max-age=31536000"

// origin is how one request reached the service: the scheme and host its
// client used, and whether it came through a trusted proxy.
type origin struct {
	scheme, host string
	proxied      bool // forwarded by a trusted proxy
	local        bool // straight from this machine, through no proxy
}

// originOf reads the request's origin: TLS here, or what a trusted proxy
// says (Forwarded first, then X-Forwarded-Proto and X-Forwarded-Host);
// anyone else's forwarding headers are ignored.
func (n Network) originOf(r *http.Request) origin {
	o := origin{scheme: "http", host: r.Host}
	if r.TLS != nil {
		o.scheme = "https"
	}
	peer := peerAddr(r)
	if n.trusted(peer) {
		proto, host := forwarded(r.Header)
		if proto != "" {
			o.scheme, o.proxied = proto, true
		}
		if host != "" {
			o.host, o.proxied = host, true
		}
	}
	o.local = !o.proxied && peer.IsValid() && peer.IsLoopback()
	return o
}

// secure reports whether the request's keys and answers travel
// encrypted or never leave this machine.
func (o origin) secure() bool { return o.scheme == "https" || o.local }

func (n Network) trusted(peer netip.Addr) bool {
	if !peer.IsValid() {
		return false
	}
	for _, p := range n.TrustedProxies {
		if p.Contains(peer.Unmap()) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end.
func peerAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// forwarded reads the scheme and host a proxy says the client used: the
// first element of RFC 7239's Forwarded, else X-Forwarded-Proto and
// X-Forwarded-Host (their first values).
func forwarded(h http.Header) (proto, host string) {
	if f := h.Get("Forwarded"); f != "" {
		first, _, _ := strings.Cut(f, ",")
		for _, pair := range strings.Split(first, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok {
				continue
			}
			v = strings.Trim(v, `"`)
			switch strings.ToLower(k) {
			case "proto":
				proto = v
			case "host":
				host = v
			}
		}
	}
	if proto == "" {
		proto, _, _ = strings.Cut(h.Get("X-Forwarded-Proto"), ",")
	}
	if host == "" {
		host, _, _ = strings.Cut(h.Get("X-Forwarded-Host"), ",")
	}
	proto = strings.ToLower(strings.TrimSpace(proto))
	if proto != "http" && proto != "https" {
		proto = ""
	}
	return proto, strings.TrimSpace(host)
}

// ipExtractor is the client's address for the failed-authentication
// limits: the connection's peer, or, from a trusted proxy, the address it
// names in X-Forwarded-For.
func (n Network) ipExtractor() echo.IPExtractor {
	if len(n.TrustedProxies) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range n.TrustedProxies {
		opts = append(opts, echo.TrustIPRange(prefixNet(p)))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

func prefixNet(p netip.Prefix) *net.IPNet {
	return &net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
}

// secureTransport redirects, when HTTPS is configured, a request that came
// over plain HTTP from elsewhere than this machine to the same address
// over HTTPS, before any handler reads it: no key, join code or setup
// answer is ever sent back over plain HTTP. /healthz and /readyz stay
// plain for health checks. HTTPS answers carry HSTS.
func (s *Server) secureTransport(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		o := s.cfg.Network.originOf(c.Request())
		c.Set(originKey, o)
		if o.scheme == "https" {
			c.Response().Header().Set("Strict-Transport-Security", hsts)
		}
		if !s.cfg.Network.HTTPS || o.secure() {
			return next(c)
		}
		if p := c.Request().URL.Path; p == "/healthz" || p == "/readyz" {
			return next(c)
		}
		to := url.URL{Scheme: "https", Host: o.host, Path: c.Request().URL.Path, RawQuery: c.Request().URL.RawQuery}
		if s.cfg.Network.PublicURL != "" {
			if pub, err := url.Parse(s.cfg.Network.PublicURL); err == nil && pub.Scheme == "https" {
				to.Host = pub.Host
			}
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Redirect(http.StatusPermanentRedirect, to.String())
	}
}

const originKey = "stichbuch.origin"

// originOf is the request's origin as secureTransport read it.
func (s *Server) originOf(c echo.Context) origin {
	if o, ok := c.Get(originKey).(origin); ok {
		return o
	}
	return s.cfg.Network.originOf(c.Request())
}

// hostIsLoopback reports whether a Host header ("localhost:8080",
// "[::1]:8080") names this machine's loopback.
func hostIsLoopback(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
