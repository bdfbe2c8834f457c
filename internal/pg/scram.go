package pg

import (
	"crypto/hmac"
	"crypto/md5" //nolint:gosec // PostgreSQL legacy md5 verifiers
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/xdg-go/stringprep"
)

// ScramIterations is PostgreSQL's default scram_iterations.
const ScramIterations = 4096

// ScramVerifier computes the SCRAM-SHA-256 verifier PostgreSQL stores for
// password, with a fresh random 16-byte salt, so that the plaintext never
// reaches the server (nor its statement log).
func ScramVerifier(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("generating salt: %w", err)
	}
	return scramVerifier(password, salt, ScramIterations)
}

// ScramVerifierWithSalt computes the verifier for password with a given salt
// and iteration count: deterministic, for the scram_sha256_verifier function.
func ScramVerifierWithSalt(password string, salt []byte, iterations int) (string, error) {
	if len(salt) == 0 {
		return "", errors.New("the salt must not be empty")
	}
	if iterations < 1 {
		return "", fmt.Errorf("iterations must be at least 1, got %d", iterations)
	}
	return scramVerifier(password, salt, iterations)
}

func scramVerifier(password string, salt []byte, iterations int) (string, error) {
	stored, server, err := scramKeys(password, salt, iterations)
	if err != nil {
		return "", err
	}
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", iterations, b64(salt), b64(stored), b64(server)), nil
}

// scramKeys derives StoredKey and ServerKey (RFC 5802, section 3).
func scramKeys(password string, salt []byte, iterations int) (storedKey, serverKey []byte, err error) {
	salted, err := pbkdf2.Key(sha256.New, saslPrep(password), salt, iterations, sha256.Size)
	if err != nil {
		return nil, nil, err
	}
	clientKey := hmacSHA256(salted, "Client Key")
	sum := sha256.Sum256(clientKey)
	return sum[:], hmacSHA256(salted, "Server Key"), nil
}

// ScramVerifierMatches reports whether verifier (as stored in pg_authid) was
// computed from password. A verifier of another form never matches.
func ScramVerifierMatches(verifier, password string) bool {
	v, ok := parseScramVerifier(verifier)
	if !ok {
		return false
	}
	stored, server, err := scramKeys(password, v.salt, v.iter)
	if err != nil {
		return false
	}
	return hmac.Equal(stored, v.stored) && hmac.Equal(server, v.server)
}

// scramSecret is a SCRAM-SHA-256 secret as pg_authid stores it:
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> (base64).
type scramSecret struct {
	iter                 int
	salt, stored, server []byte
}

// parseScramVerifier reads a well-formed SCRAM-SHA-256 secret: a positive
// iteration count, a non-empty salt and two SHA-256-sized keys.
func parseScramVerifier(s string) (scramSecret, bool) {
	var v scramSecret
	rest, ok := strings.CutPrefix(s, "SCRAM-SHA-256$")
	if !ok {
		return v, false
	}
	iterSalt, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return v, false
	}
	iterStr, saltB64, ok := strings.Cut(iterSalt, ":")
	if !ok {
		return v, false
	}
	storedB64, serverB64, ok := strings.Cut(keys, ":")
	if !ok {
		return v, false
	}
	var err error
	if v.iter, err = strconv.Atoi(iterStr); err != nil || v.iter <= 0 {
		return v, false
	}
	if v.salt, err = base64.StdEncoding.DecodeString(saltB64); err != nil || len(v.salt) == 0 {
		return v, false
	}
	for _, k := range []struct {
		b64 string
		out *[]byte
	}{{storedB64, &v.stored}, {serverB64, &v.server}} {
		if *k.out, err = base64.StdEncoding.DecodeString(k.b64); err != nil || len(*k.out) != sha256.Size {
			return v, false
		}
	}
	return v, true
}

// saslPrep normalises like PostgreSQL's pg_saslprep: when the password is not
// valid for SASLprep, PostgreSQL uses the raw bytes, and so do we.
func saslPrep(password string) string {
	if p, err := stringprep.SASLprep.Prepare(password); err == nil {
		return p
	}
	return password
}

func hmacSHA256(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// PasswordSeal is a digest of a stored verifier and a password, for a caller
// that keeps it next to the password (the role's private state, beside the
// password in the Terraform state) to remember that the two match without
// deriving the verifier's keys again: a changed verifier or password gives
// another seal. It tells nothing the password itself does not.
func PasswordSeal(verifier, password string) string {
	sum := sha256.Sum256([]byte("pgtf-password-seal\x00" + verifier + "\x00" + password))
	return hex.EncodeToString(sum[:])
}

// IsPasswordVerifier reports whether password is already a verifier, in the
// forms PostgreSQL recognises in CREATE/ALTER ROLE ... PASSWORD and stores as
// given: "md5" followed by 32 lower-case hex digits, or a well-formed
// SCRAM-SHA-256 secret. cyrilgdn/postgresql passed a configured password to
// the server as it was, so its users may configure such a verifier (to keep
// the plaintext out of the configuration); its states hold one after an
// import, or a refresh as superuser of a role whose password they did not set.
func IsPasswordVerifier(password string) bool {
	if hexSum, ok := strings.CutPrefix(password, "md5"); ok && len(hexSum) == 32 {
		return strings.Trim(hexSum, "0123456789abcdef") == ""
	}
	_, ok := parseScramVerifier(password)
	return ok
}

// PasswordVerifierMatches reports whether a stored verifier (SCRAM-SHA-256,
// or the legacy "md5" + md5(password || rolname) form) was made from password.
func PasswordVerifierMatches(verifier, password, rolname string) bool {
	if hexSum, ok := strings.CutPrefix(verifier, "md5"); ok {
		sum := md5.Sum([]byte(password + rolname))
		return hmac.Equal([]byte(hex.EncodeToString(sum[:])), []byte(hexSum))
	}
	return ScramVerifierMatches(verifier, password)
}
