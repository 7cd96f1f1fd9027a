package settings

import (
	"errors"
	"slices"
	"testing"
)

func TestKeysRegistry(t *testing.T) {
	keys := Keys()
	if !slices.IsSortedFunc(keys, func(a, b KeyInfo) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	}) {
		t.Error("Keys() is not sorted by key")
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if k.Help == "" || k.Allowed == "" {
			t.Errorf("%s: missing help or allowed text", k.Key)
		}
		if k.Kind != KindStructured {
			if err := Validate(k.Key, k.Default); err != nil {
				t.Errorf("default of %s does not validate: %v", k.Key, err)
			}
			if k.Env == "" || seen[k.Env] {
				t.Errorf("%s: env var %q empty or duplicate", k.Key, k.Env)
			}
			seen[k.Env] = true
		}
	}
	if info, _ := Info("dream.min_hours"); info.Env != "MEMDIR_DREAM_MIN_HOURS" {
		t.Errorf("env of dream.min_hours = %q, want MEMDIR_DREAM_MIN_HOURS", info.Env)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		key, value string
		ok         bool
	}{
		{"mode", "live", true},
		{"mode", " Log ", true},
		{"mode", "fast", false},
		{"git", "TRUE", true},
		{"git", "maybe", false},
		{"dream.min_hours", "0", true},
		{"dream.min_hours", "1.5", true},
		{"dream.min_hours", "-0.5", false},
		{"dream.min_hours", "NaN", false},
		{"dream.min_hours", "Inf", false},
		{"lock.timeout", "1m30s", true},
		{"lock.timeout", "-1s", false},
		{"lock.timeout", "soon", false},
		{"dream.schedule", "", true},
		{"dream.schedule", "*/5 * * * *", true},
		{"dream.schedule", "61 * * * *", false},
		{"dream.schedule", "CRON_TZ=UTC", false},
		{"dir", "~/mem", true},
		{"dir", "a\x00b", false},
	}
	for _, tc := range tests {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			err := Validate(tc.key, tc.value)
			if (err == nil) != tc.ok {
				t.Fatalf("Validate(%q, %q) = %v, want ok %v", tc.key, tc.value, err, tc.ok)
			}
			var ie *InvalidError
			if err != nil && !errors.As(err, &ie) {
				t.Errorf("error %v is not an *InvalidError", err)
			}
		})
	}
	if err := Validate("colour", "red"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("Validate(colour) = %v, want ErrUnknownKey", err)
	}
}

func TestParseLayer(t *testing.T) {
	for l := Default; l <= Flag; l++ {
		got, err := ParseLayer(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLayer(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	if _, err := ParseLayer("team"); err == nil {
		t.Error("ParseLayer(team) = nil error, want an error")
	}
}

func TestOriginString(t *testing.T) {
	tests := []struct {
		o    Origin
		want string
	}{
		{Origin{Layer: Default}, "default"},
		{Origin{Layer: Project, File: "/r/.memdir.yaml", Line: 3}, "project /r/.memdir.yaml:3"},
		{Origin{Layer: Env, File: "MEMDIR_MODE"}, "env MEMDIR_MODE"},
		{Origin{Layer: Managed, File: "/etc/m.yaml", Line: 1, Locked: true}, "managed /etc/m.yaml:1 (locked)"},
	}
	for _, tc := range tests {
		if got := tc.o.String(); got != tc.want {
			t.Errorf("Origin.String() = %q, want %q", got, tc.want)
		}
	}
}
