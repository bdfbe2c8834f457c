package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// NewScramSHA256VerifierFunction returns the scram_sha256_verifier function.
func NewScramSHA256VerifierFunction() function.Function {
	return &providerFunction{name: "scram_sha256_verifier", run: runScramSHA256Verifier, definition: function.Definition{
		Summary: "Computes the SCRAM-SHA-256 password verifier PostgreSQL stores for a password",
		Description: "Returns the SCRAM-SHA-256 verifier SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> that PostgreSQL " +
			"stores in pg_authid.rolpassword for password, computed locally with the given base64 salt and iteration count, " +
			"so the result is the same on every run. PostgreSQL accepts it as a role's password (ALTER ROLE ... PASSWORD " +
			"'<verifier>') and the role then logs in with the plain password. The result is a secret: anyone who has it can " +
			"try to guess the password offline. Terraform marks it sensitive only when the password argument is sensitive.",
		MarkdownDescription: "Returns the SCRAM-SHA-256 verifier " +
			"`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>` (base64 parts) that PostgreSQL keeps in " +
			"`pg_authid.rolpassword`, computed locally (RFC 5802/7677, the password normalised with SASLprep as PostgreSQL " +
			"does) from `password`, `salt` and `iterations`. The same inputs always give the same verifier, so it can sit in " +
			"a configuration without a diff on every plan; PostgreSQL itself picks a random salt each time.\n\n" +
			"PostgreSQL takes a verifier wherever it takes a password (`ALTER ROLE ... PASSWORD '<verifier>'`) and stores it " +
			"as is; the role then logs in with the plain password, and the plain password never reaches the server.\n\n" +
			"**The result is a secret**: whoever reads it can try to guess the password offline, and it is enough to " +
			"impersonate the server to a client. Terraform marks a function's result sensitive when an argument is " +
			"sensitive, so pass a sensitive `password` (a `sensitive` variable, a `random_password` result or " +
			"`sensitive(...)`); provider functions cannot mark their parameters sensitive themselves.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "password",
				Description:         "The plain password; not empty and without a NUL byte. Pass a sensitive value.",
				MarkdownDescription: "The plain password: not empty, without a NUL byte. Pass a sensitive value so that the result is sensitive too.",
			},
			function.StringParameter{
				Name: "salt",
				Description: "The salt, base64-encoded with padding (the form the verifier itself uses); PostgreSQL uses 16 random bytes. " +
					"Keep it fixed (for example a random_bytes resource's base64 result) so the verifier does not change.",
				MarkdownDescription: "The salt, **base64**-encoded with padding (standard alphabet, the form the verifier itself " +
					"shows); at least one byte once decoded. PostgreSQL uses 16 random bytes: `random_bytes` of the " +
					"`hashicorp/random` provider with `length = 16` and its `base64` result keeps one stable across runs.",
			},
			function.Int64Parameter{
				Name:                "iterations",
				Description:         "The PBKDF2 iteration count, from 1 to 2147483647; PostgreSQL's default (scram_iterations) is 4096. Higher is slower to compute and to guess.",
				MarkdownDescription: "The PBKDF2 iteration count, 1 to 2147483647. PostgreSQL's default (`scram_iterations`) is `4096`; a higher count makes each login, each plan and each guess slower.",
			},
		},
		Return: function.StringReturn{},
	}}
}

func runScramSHA256Verifier(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var password, salt string
	var iterations int64
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &password, &salt, &iterations))
	if resp.Error != nil {
		return
	}
	switch {
	case password == "":
		resp.Error = function.NewArgumentFuncError(0, "password must not be empty: PostgreSQL does not accept an empty password")
		return
	case strings.IndexByte(password, 0) >= 0:
		resp.Error = function.NewArgumentFuncError(0, "password must not contain a NUL byte: a client cannot send one")
		return
	}
	saltBytes, err := base64.StdEncoding.Strict().DecodeString(salt)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(1, fmt.Sprintf("salt must be base64 (standard alphabet, with padding): %s", err))
		return
	}
	if len(saltBytes) == 0 {
		resp.Error = function.NewArgumentFuncError(1, "salt must not be empty (PostgreSQL uses 16 random bytes)")
		return
	}
	if iterations < 1 || iterations > math.MaxInt32 {
		resp.Error = function.NewArgumentFuncError(2, fmt.Sprintf("iterations must be between 1 and %d (PostgreSQL's default is %d), got %d", math.MaxInt32, pg.ScramIterations, iterations))
		return
	}
	v, err := pg.ScramVerifierWithSalt(password, saltBytes, int(iterations))
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, v))
}
