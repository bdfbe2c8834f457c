package pg

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestScramRFC7677Vector derives the keys for the RFC 7677 example exchange
// (user "user", password "pencil") and checks the client proof and server
// signature it would produce against the RFC's values.
func TestScramRFC7677Vector(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	storedKey, serverKey, err := scramKeys("pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	authMessage := "n=user,r=rOprNGfwEbeRWgbNEkqO," +
		"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096," +
		"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"

	serverSig := hmacSHA256(serverKey, authMessage)
	if got, want := base64.StdEncoding.EncodeToString(serverSig), "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="; got != want {
		t.Fatalf("server signature = %s, want %s", got, want)
	}
	// ClientProof = ClientKey XOR ClientSignature; recover ClientKey from the
	// RFC's proof and check that it hashes to our StoredKey.
	proof, _ := base64.StdEncoding.DecodeString("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
	clientSig := hmacSHA256(storedKey, authMessage)
	clientKey := make([]byte, len(proof))
	for i := range proof {
		clientKey[i] = proof[i] ^ clientSig[i]
	}
	sum := sha256.Sum256(clientKey)
	if !hmac.Equal(sum[:], storedKey) {
		t.Fatal("client proof from RFC 7677 does not match the derived StoredKey")
	}
}

func TestScramVerifierFormatAndMatch(t *testing.T) {
	v, err := ScramVerifier("s3cr'et")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v, "SCRAM-SHA-256$4096:") || strings.Contains(v, "s3cr") {
		t.Fatalf("unexpected verifier %q", v)
	}
	if !ScramVerifierMatches(v, "s3cr'et") {
		t.Fatal("verifier does not match its own password")
	}
	if ScramVerifierMatches(v, "other") {
		t.Fatal("verifier matches a wrong password")
	}
	for _, bad := range []string{"", "md5abc", "SCRAM-SHA-256$x:y$z:w", "SCRAM-SHA-256$4096:!!$a:b"} {
		if ScramVerifierMatches(bad, "x") {
			t.Fatalf("malformed verifier %q matched", bad)
		}
	}
	v2, _ := ScramVerifier("s3cr'et")
	if v == v2 {
		t.Fatal("two verifiers of the same password share a salt")
	}
}

func TestQuoting(t *testing.T) {
	cases := map[string]string{
		`plain`:      `"plain"`,
		`Mixed Case`: `"Mixed Case"`,
		`a"b`:        `"a""b"`,
		`x;DROP`:     `"x;DROP"`,
	}
	for in, want := range cases {
		if got := QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuoteQualified("s", "t"); got != `"s"."t"` {
		t.Errorf("QuoteQualified = %s", got)
	}
	if got := QuoteLiteral(`it's \ fine`); got != `'it''s \ fine'` {
		t.Errorf("QuoteLiteral = %s", got)
	}
}

func TestValidateName(t *testing.T) {
	ok := []string{"a", "Fx-Mixed Case", `q"uote;`, "ünïcødé", strings.Repeat("a", 63), strings.Repeat("é", 31)}
	for _, n := range ok {
		if err := ValidateName(n); err != nil {
			t.Errorf("ValidateName(%q) = %v", n, err)
		}
	}
	bad := []string{"", strings.Repeat("a", 64), strings.Repeat("é", 32), "a\x00b", "\xff"}
	for _, n := range bad {
		if err := ValidateName(n); err == nil {
			t.Errorf("ValidateName(%q) accepted", n)
		}
	}
}

func TestVersionNum(t *testing.T) {
	for in, want := range map[string]int{"15": 150000, "15.4": 150004, "9.6.2": 90602, "12.1.0": 120001} {
		if got, ok := versionNum(in); !ok || got != want {
			t.Errorf("versionNum(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	if _, ok := versionNum("x"); ok {
		t.Error("versionNum accepted x")
	}
}

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

func TestIsTransient(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: CodeSerializationFailure}, true},
		{&pgconn.PgError{Code: CodeDeadlockDetected}, true},
		{fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: CodeInternalError, Message: "tuple concurrently updated"}), true},
		{&pgconn.PgError{Code: CodeInternalError, Message: "something else"}, false},
		{&pgconn.PgError{Code: CodeInsufficientPriv}, false},
		{fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), false},
		{nil, false},
	}
	for _, c := range cases {
		if got := IsTransient(c.err); got != c.want {
			t.Errorf("IsTransient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
