package main

// serve's network: where it listens, HTTPS three ways (a certificate from
// files, automatic certificates from an ACME CA, or a trusted proxy in
// front), the plain-HTTP listener that redirects to HTTPS, and what the
// API is told about it (api.Network).

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/acme/autocert"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/cmd/internal/certs"
	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
)

// netFlags are serve's flags of the network, each with its environment
// variable.
type netFlags struct {
	addr, httpAddr, publicURL             string
	tlsCert, tlsKey                       string
	domain, acmeEmail, acmeDir, acmeRoots string
	trustedProxies                        string
	fs                                    *flag.FlagSet
	getenv                                func(string) string
}

func (f *netFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	f.fs, f.getenv = fs, getenv
	env := func(name string) string { return getenv(name) }
	fs.StringVar(&f.addr, "addr", runenv.EnvOr(getenv, "STICHBUCH_ADDR", defaultAddr), "address to listen on (with --domain default :443)")
	fs.StringVar(&f.httpAddr, "http-addr", env("STICHBUCH_HTTP_ADDR"), "a plain-HTTP address that redirects to HTTPS (with --domain default :80, where the ACME challenge is answered)")
	fs.StringVar(&f.publicURL, "public-url", env("STICHBUCH_PUBLIC_URL"), "the address phones open, e.g. https://club.example.de: invitations carry it")
	fs.StringVar(&f.tlsCert, "tls-cert", env("STICHBUCH_TLS_CERT"), "HTTPS with this certificate (PEM, with its chain), read again when it changes")
	fs.StringVar(&f.tlsKey, "tls-key", env("STICHBUCH_TLS_KEY"), "the key of --tls-cert (PEM)")
	fs.StringVar(&f.domain, "domain", env("STICHBUCH_DOMAIN"), "HTTPS with automatic certificates (ACME) for this public domain (several: comma-separated)")
	fs.StringVar(&f.acmeEmail, "acme-email", env("STICHBUCH_ACME_EMAIL"), "the ACME account's contact, for the CA's expiry notices")
	fs.StringVar(&f.acmeDir, "acme-dir", runenv.EnvOr(getenv, "STICHBUCH_ACME_DIR", autocert.DefaultACMEDirectory), "the ACME CA's directory URL")
	fs.StringVar(&f.acmeRoots, "acme-roots", env("STICHBUCH_ACME_ROOTS"), "PEM certificates to trust for the ACME CA's own HTTPS (a private CA; default the system's)")
	fs.StringVar(&f.trustedProxies, "trusted-proxy", env("STICHBUCH_TRUSTED_PROXIES"), "addresses or CIDR ranges of the reverse proxies whose X-Forwarded-*/Forwarded headers count (comma-separated)")
}

// network is serve's listeners and what the API and the terminal are told.
type network struct {
	api             net.Listener
	tls             *tls.Config  // nil: plain HTTP
	redirect        net.Listener // the plain-HTTP listener that redirects, or nil
	redirectHandler http.Handler
	config          api.Network
	reach           reachable
	mode            string // for the log: plain, certificate files, acme, proxy
}

// listen opens serve's listeners as the flags say; dataDir holds the ACME
// cache.
func (f *netFlags) listen(dataDir string, log *slog.Logger) (*network, error) {
	proxies, err := parsePrefixes(f.trustedProxies)
	if err != nil {
		return nil, fmt.Errorf("--trusted-proxy: %w", err)
	}
	public, err := parsePublicURL(f.publicURL)
	if err != nil {
		return nil, err
	}
	n := &network{config: api.Network{TrustedProxies: proxies}, mode: "plain HTTP"}
	if len(proxies) > 0 {
		n.mode = "behind a trusted proxy"
	}
	acm, err := f.certificates(n, &public, dataDir, log)
	if err != nil {
		return nil, err
	}
	n.config.HTTPS = n.tls != nil || len(proxies) > 0
	if n.api, err = net.Listen("tcp", f.addr); err != nil {
		return nil, err
	}
	scheme := "http"
	if n.tls != nil {
		scheme = "https"
	}
	urls, beyond := listenURLs(scheme, n.api.Addr(), machineAddrs())
	_, port, _ := net.SplitHostPort(n.api.Addr().String())
	if public != "" && !f.set("public-url", "STICHBUCH_PUBLIC_URL") && port != "443" {
		public = strings.TrimSuffix(public, "/") + ":" + port // the certificate's name on the listener's port
	}
	n.config.PublicURL = public
	if beyond {
		n.config.NetworkURL = urls[0]
	}
	n.reach = reachable{urls: urls, beyond: beyond, publicURL: public, https: n.config.HTTPS, port: port}
	if public != "" && strings.HasPrefix(public, "https://") && !n.config.HTTPS {
		log.Warn("--public-url is HTTPS, but this service has no certificate and trusts no proxy: set --trusted-proxy to the proxy that ends TLS, so the service knows which requests came over HTTPS")
	}
	if f.httpAddr != "" {
		if n.tls == nil {
			n.api.Close()
			return nil, errors.New("--http-addr redirects to HTTPS: it needs --tls-cert or --domain")
		}
		if n.redirect, err = net.Listen("tcp", f.httpAddr); err != nil {
			n.api.Close()
			return nil, err
		}
		n.redirectHandler = redirectToHTTPS(public, port)
		if acm != nil {
			n.redirectHandler = acm.HTTPHandler(n.redirectHandler) // and the ACME challenge
		}
	}
	return n, nil
}

// certificates sets up HTTPS as the flags say: n.tls from certificate
// files or from an ACME CA (whose manager it returns, for the HTTP
// challenge), and, unless *public is set, the address of the
// certificate's first name. Without either, n stays plain.
func (f *netFlags) certificates(n *network, public *string, dataDir string, log *slog.Logger) (*autocert.Manager, error) {
	var domains []string
	for _, d := range strings.Split(f.domain, ",") {
		if d = strings.TrimSpace(d); d != "" {
			domains = append(domains, d)
		}
	}
	switch {
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return nil, errors.New("--tls-cert and --tls-key go together")
	case f.tlsCert != "" && len(domains) > 0:
		return nil, errors.New("--tls-cert and --domain exclude each other: certificates from files, or from the ACME CA")
	case f.tlsCert != "":
		files, err := certs.LoadFiles(f.tlsCert, f.tlsKey, log)
		if err != nil {
			return nil, err
		}
		n.tls, n.mode = files.TLSConfig(), "HTTPS, certificate from files"
		if names := certs.Names(&tls.Certificate{Leaf: files.Leaf()}); *public == "" && len(names) > 0 {
			*public = "https://" + names[0]
		}
		return nil, nil
	case len(domains) > 0:
		if !f.set("addr", "STICHBUCH_ADDR") {
			f.addr = ":443"
		}
		if f.httpAddr == "" {
			f.httpAddr = ":80"
		}
		m, err := certs.ACME{Domains: domains, Email: f.acmeEmail, Directory: f.acmeDir, Roots: f.acmeRoots,
			Cache: filepath.Join(dataDir, "acme")}.Manager()
		if err != nil {
			return nil, err
		}
		n.tls, n.mode = m.TLSConfig(), "HTTPS, certificates from "+f.acmeDir
		if *public == "" {
			*public = "https://" + domains[0]
		}
		return m, nil
	}
	return nil, nil
}

// set reports whether a flag or its environment variable was given.
func (f *netFlags) set(name, env string) bool {
	given := f.getenv(env) != ""
	f.fs.Visit(func(fl *flag.Flag) {
		if fl.Name == name {
			given = true
		}
	})
	return given
}

// close closes what listen opened (serve's servers close them too).
func (n *network) close() {
	n.api.Close()
	if n.redirect != nil {
		n.redirect.Close()
	}
}

// redirectToHTTPS answers plain HTTP with a permanent redirect to the
// same path over HTTPS: on the public URL's host when there is one, else
// on the request's host at the HTTPS listener's port.
func redirectToHTTPS(public, httpsPort string) http.Handler {
	var publicHost string
	if u, err := url.Parse(public); err == nil && public != "" {
		publicHost = u.Host
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := publicHost
		if host == "" {
			h, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				h = r.Host
			}
			host = strings.TrimPrefix(urlOf("https", strings.Trim(h, "[]"), httpsPort), "https://")
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
}

// parsePrefixes reads a comma-separated list of addresses and CIDR ranges.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		ip, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("want addresses or CIDR ranges such as 127.0.0.1 or 172.28.0.0/24, got %q", part)
		}
		out = append(out, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
	}
	return out, nil
}

// parsePublicURL checks --public-url: http or https, a host, no more path
// than "/".
func parsePublicURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
		return "", fmt.Errorf("--public-url: want the address phones open, such as https://club.example.de, got %q", s)
	}
	return strings.TrimSuffix(u.Scheme+"://"+u.Host, "/"), nil
}
