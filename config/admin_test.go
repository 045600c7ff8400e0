package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAdminAddr(t *testing.T) {
	c := validConfig(t)
	if c.HTTP.AdminAddr != "" || c.HTTP.AdminAddrGiven {
		t.Errorf("no admin listener unless configured, got %q (given %t)", c.HTTP.AdminAddr, c.HTTP.AdminAddrGiven)
	}
	t.Setenv("TENURE_HTTP_ADMIN_ADDR", "")
	if c = validConfig(t); c.HTTP.AdminAddr != "" || !c.HTTP.AdminAddrGiven {
		t.Errorf("an empty variable says none, explicitly: %q (given %t)", c.HTTP.AdminAddr, c.HTTP.AdminAddrGiven)
	}
	t.Setenv("TENURE_HTTP_ADMIN_ADDR", "0.0.0.0:9091")
	if c = validConfig(t); c.HTTP.AdminAddr != "0.0.0.0:9091" || !c.HTTP.AdminAddrGiven {
		t.Errorf("admin address from the variable: %q", c.HTTP.AdminAddr)
	}
	if err := c.Validate(NeedHTTP); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"9090", "localhost", c.HTTP.Addr} {
		c.HTTP.AdminAddr = bad
		err := c.Validate(NeedHTTP)
		if err == nil || !strings.Contains(err.Error(), "http.admin_addr (TENURE_HTTP_ADMIN_ADDR)") {
			t.Errorf("%q: want a problem naming http.admin_addr, got %v", bad, err)
		}
	}
}

func TestAdminAddrFromFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tenure.yaml")
	if err := os.WriteFile(file, []byte("http:\n  admin_addr: 127.0.0.1:9191\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP.AdminAddr != "127.0.0.1:9191" || !c.HTTP.AdminAddrGiven {
		t.Errorf("admin address from the file: %q (given %t)", c.HTTP.AdminAddr, c.HTTP.AdminAddrGiven)
	}
}
