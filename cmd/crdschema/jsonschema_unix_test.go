//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestJSONSchemaFileMode: schema files are created as a plain create
// would create them, 0666 less the umask: 0644 under the default umask
// 022 (readable by a language server running as another user), 0600
// under 077. Not parallel: the umask is the process's.
func TestJSONSchemaFileMode(t *testing.T) {
	for _, c := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o077, 0o600}} {
		old := syscall.Umask(c.umask)
		dir := t.TempDir()
		_, errOut, code := runCmd(t, nil, "jsonschema", "--crd", crontabCRD, "--out", dir)
		syscall.Umask(old)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, name := range []string{"crontab_v1.json", "crontab_v1-strict.json"} {
			fi, err := os.Stat(filepath.Join(dir, "stable.example.com", name))
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != c.want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", c.umask, name, got, c.want)
			}
		}
	}
}
