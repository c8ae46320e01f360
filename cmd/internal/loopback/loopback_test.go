package loopback

import "testing"

func TestHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true,
		"0.0.0.0": false, "": false, "::": false, "10.1.2.3": false, "example.org": false,
		"localhost.example.org": false, "[::1]": false, "127.0.0.1:8080": false,
	} {
		if got := Host(host); got != want {
			t.Errorf("Host(%q) = %v, want %v", host, got, want)
		}
	}
}
