// Package certs holds the certificates `stichbuch serve` answers HTTPS
// with: a certificate and key from files, read again whenever the files
// change (so an external renewer such as certbot or acme.sh needs no
// restart), or certificates from an ACME CA (Let's Encrypt by default)
// through golang.org/x/crypto/acme/autocert, cached in a directory.
package certs

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// Files is a certificate and its key read from two PEM files, and read
// again on the next handshake after either file changed (its size, time
// or inode). A pair that does not load (a renewer half way through
// writing it) is logged and the last good one kept until it does.
type Files struct {
	cert, key string
	log       *slog.Logger

	mu      sync.Mutex
	current *tls.Certificate
	stamp   [2]fileStamp
	broken  [2]fileStamp // the stamps of a pair that did not load, logged once
}

type fileStamp struct {
	size  int64
	mtime time.Time
	inode uint64
}

// LoadFiles reads the pair once; it fails when it does not load, so serve
// refuses to start with a broken certificate.
func LoadFiles(certFile, keyFile string, log *slog.Logger) (*Files, error) {
	f := &Files{cert: certFile, key: keyFile, log: log}
	stamp, err := f.stamps()
	if err != nil {
		return nil, err
	}
	c, err := load(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	f.current, f.stamp = c, stamp
	return f, nil
}

func load(certFile, keyFile string) (*tls.Certificate, error) {
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s with key %s: %w", certFile, keyFile, err)
	}
	return &c, nil
}

func (f *Files) stamps() ([2]fileStamp, error) {
	var out [2]fileStamp
	for i, name := range []string{f.cert, f.key} {
		info, err := os.Stat(name)
		if err != nil {
			return out, err
		}
		out[i] = fileStamp{size: info.Size(), mtime: info.ModTime()}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			out[i].inode = st.Ino
		}
	}
	return out, nil
}

// GetCertificate is tls.Config's: the pair as the files hold it now.
func (f *Files) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	stamp, err := f.stamps()
	if err != nil || stamp == f.stamp || stamp == f.broken {
		return f.current, nil
	}
	c, err := load(f.cert, f.key)
	if err != nil {
		f.broken = stamp
		f.log.Warn("the TLS certificate's files changed but do not load; still answering with the previous one", "err", err)
		return f.current, nil
	}
	f.current, f.stamp = c, stamp
	f.log.Info("TLS certificate reloaded", "cert", f.cert, "names", Names(c), "expires", leaf(c).NotAfter.Format(time.DateOnly))
	return c, nil
}

// Leaf is the certificate now served.
func (f *Files) Leaf() *x509.Certificate {
	f.mu.Lock()
	defer f.mu.Unlock()
	return leaf(f.current)
}

// TLSConfig answers with the files' pair, HTTP/2 and HTTP/1.1, TLS 1.2 and up.
func (f *Files) TLSConfig() *tls.Config {
	return &tls.Config{GetCertificate: f.GetCertificate, NextProtos: []string{"h2", "http/1.1"}, MinVersion: tls.VersionTLS12}
}

func leaf(c *tls.Certificate) *x509.Certificate {
	if c.Leaf != nil {
		return c.Leaf
	}
	l, err := x509.ParseCertificate(c.Certificate[0])
	if err != nil {
		return &x509.Certificate{}
	}
	return l
}

// Names are the DNS names a certificate is for that a phone can open:
// wildcards (no link can name one) and localhost left out.
func Names(c *tls.Certificate) []string {
	var out []string
	for _, n := range leaf(c).DNSNames {
		if !strings.HasPrefix(n, "*") && n != "localhost" && !strings.HasSuffix(n, ".localhost") {
			out = append(out, n)
		}
	}
	return out
}

// ACME configures automatic certificates for public domains.
type ACME struct {
	// Domains are the names to get certificates for; no other is asked.
	Domains []string
	// Email is the account's contact for the CA's expiry notices.
	Email string
	// Directory is the CA's ACME directory URL (default Let's Encrypt's).
	Directory string
	// Roots, when set, are the PEM certificates to trust for the CA's own
	// HTTPS (a private CA such as step-ca); default the system's.
	Roots string
	// Cache is the directory that keeps the account key and certificates.
	Cache string
}

// Manager is an autocert.Manager for a's domains: it accepts the CA's
// terms, caches in a.Cache (created 0700) and asks a.Directory.
func (a ACME) Manager() (*autocert.Manager, error) {
	if len(a.Domains) == 0 {
		return nil, errors.New("no domain to get a certificate for")
	}
	if err := os.MkdirAll(a.Cache, 0o700); err != nil {
		return nil, fmt.Errorf("the ACME cache directory: %w", err)
	}
	client := &acme.Client{DirectoryURL: a.Directory, UserAgent: "stichbuch"}
	if client.DirectoryURL == "" {
		client.DirectoryURL = autocert.DefaultACMEDirectory
	}
	if a.Roots != "" {
		pem, err := os.ReadFile(a.Roots)
		if err != nil {
			return nil, fmt.Errorf("the ACME server's roots: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("the ACME server's roots: no PEM certificate in %s", a.Roots)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		client.HTTPClient = &http.Client{Transport: tr, Timeout: time.Minute}
	}
	return &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(a.Cache),
		HostPolicy: hostPolicy(a.Domains),
		Email:      a.Email,
		Client:     client,
	}, nil
}

// hostPolicy allows a.Domains alone. The challenge's request names its
// host with a port when it is not 80 (a CA's test instance), so the port
// is dropped before the check.
func hostPolicy(domains []string) autocert.HostPolicy {
	allowed := autocert.HostWhitelist(domains...)
	return func(ctx context.Context, host string) error {
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		return allowed(ctx, host)
	}
}
