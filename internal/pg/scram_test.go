package pg

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
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

func TestIsPasswordVerifier(t *testing.T) {
	v, err := ScramVerifier("pw")
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{
		v:                                     true,
		"md5" + strings.Repeat("0a", 16):      true,
		"md5" + strings.Repeat("0A", 16):      false, // PostgreSQL wants lower case
		"md5" + strings.Repeat("0a", 15):      false,
		"md5secret-password-of-35-characters": false,
		"":                                    false,
		"pw":                                  false,
		"SCRAM-SHA-256$4096:c2FsdA==$a:b":     false, // keys of the wrong length
		"SCRAM-SHA-256$x:c2FsdA==$" + strings.Repeat("A", 43) + "=:" + strings.Repeat("A", 43) + "=":    false,
		"SCRAM-SHA-256$4096:c2FsdA==$" + strings.Repeat("A", 43) + "=:" + strings.Repeat("A", 43) + "=": true,
	} {
		if got := IsPasswordVerifier(s); got != want {
			t.Errorf("IsPasswordVerifier(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestRoleOptionsPasswordVerifierAsGiven: a configured password that already
// is a verifier goes to the server as it is (PostgreSQL stores it so), as
// cyrilgdn sent it, not as the verifier of its text.
func TestRoleOptionsPasswordVerifierAsGiven(t *testing.T) {
	v, err := ScramVerifier("pw")
	if err != nil {
		t.Fatal(err)
	}
	for _, given := range []string{v, "md5" + strings.Repeat("0a", 16)} {
		opts, err := roleOptions(RoleSpec{Name: "r"}, nil, true, PasswordChange{Set: true, Password: given}, &pgconn.Secrets{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(opts, "PASSWORD "+pgconn.QuoteLiteral(given)) {
			t.Errorf("options %q do not send the verifier %q as given", opts, given)
		}
	}
	opts, err := roleOptions(RoleSpec{Name: "r"}, nil, true, PasswordChange{Set: true, Password: "pw"}, &pgconn.Secrets{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(opts, "'pw'") || !strings.Contains(opts, "PASSWORD 'SCRAM-SHA-256$4096:") {
		t.Errorf("a plaintext password must go as its SCRAM verifier: %q", opts)
	}
}
