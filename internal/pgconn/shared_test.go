package pgconn

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSharedClient(t *testing.T) {
	a := SharedClient(Config{Host: "h", Port: 1, Password: "x"})
	b := SharedClient(Config{Host: "h", Port: 1, Password: "x"})
	c := SharedClient(Config{Host: "h", Port: 1, Password: "y"})
	if a != b || a == c {
		t.Fatal("identical configurations must share a client, different ones must not")
	}
	u1 := SharedClient(Config{Unknown: []string{"host"}})
	u2 := SharedClient(Config{Unknown: []string{"host"}})
	if u1 == u2 {
		t.Fatal("configurations with unknown values must not be shared")
	}
}

// The shared-client key is derived from Config: changing any field, at any
// depth (the fields of ClientCert, CloudAuth, SSHTunnel, Proxy, CloudSQL),
// changes it. A field the key missed would let two provider configurations
// that differ in it share one client; this test names such a field.
func TestConfigKeyCoversEveryField(t *testing.T) {
	// build makes a Config with one change applied at the current depth;
	// zero is the key of that depth with nothing set (a nested struct present
	// but empty), so a nested field counts only if it changes the key itself.
	var check func(path string, typ reflect.Type, build func(set func(reflect.Value)) Config)
	check = func(path string, typ reflect.Type, build func(set func(reflect.Value)) Config) {
		zero := configKey(build(func(reflect.Value) {}))
		for i := range typ.NumField() {
			f := typ.Field(i)
			name := path + f.Name
			if name == "Unsupported" {
				continue // a configuration with it is never shared
			}
			if f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct {
				elem := f.Type.Elem()
				check(name+".", elem, func(set func(reflect.Value)) Config {
					return build(func(v reflect.Value) {
						p := reflect.New(elem)
						set(p.Elem())
						v.Field(i).Set(p)
					})
				})
				continue
			}
			cfg := build(func(v reflect.Value) { v.Field(i).Set(nonZero(t, name, f.Type)) })
			if configKey(cfg) == zero {
				t.Errorf("the shared-client key ignores Config field %s: two configurations differing in it would share one client", name)
			}
		}
	}
	check("", reflect.TypeFor[Config](), func(set func(reflect.Value)) Config {
		var cfg Config
		set(reflect.ValueOf(&cfg).Elem())
		return cfg
	})
}

// nonZero returns a value of type typ that is not its zero value.
func nonZero(t *testing.T, name string, typ reflect.Type) reflect.Value {
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Slice:
		v = reflect.MakeSlice(typ, 1, 1)
		v.Index(0).Set(nonZero(t, name, typ.Elem()))
	default:
		t.Fatalf("Config field %s has a kind (%s) this test cannot set: extend nonZero", name, typ.Kind())
	}
	return v
}

// The key shows no secret and tells network paths apart.
func TestConfigKeyHidesSecrets(t *testing.T) {
	base := Config{Host: "db", Port: 5432, Password: "pw-secret", ConnectTimeout: time.Second}
	a := base
	a.SSHTunnel = &SSHTunnel{Host: "b", Port: 22, User: "u", PrivateKey: "secret-key"}
	b := base
	b.SSHTunnel = &SSHTunnel{Host: "b", Port: 22, User: "u", PrivateKey: "other-key"}
	c := base
	c.Proxy = &Proxy{URL: "socks5://u:secret@p:1080"}
	if configKey(a) == configKey(b) || configKey(a) == configKey(c) || configKey(a) == configKey(base) {
		t.Error("different network paths share a key")
	}
	for _, k := range []string{configKey(base), configKey(a), configKey(c)} {
		if strings.Contains(k, "secret") {
			t.Errorf("the key %q shows a secret", k)
		}
	}
}
