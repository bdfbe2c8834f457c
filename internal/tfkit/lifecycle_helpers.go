package tfkit

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Helpers of the resource skeleton (lifecycle.go) that resources call too:
// error diagnostics that keep their error (Failed,
// ErrorOf), recording a created object before its read-back (FinishCreate,
// RecordState), create and update from a spec, and the import hints of an
// "already exists" error (ImportIDOf, HCLValue, HCLString, ShellQuote).

// ImportIDOf is the import ID made of the string attributes names of attrs.
func ImportIDOf(attrs map[string]tftypes.Value, names []string) (string, bool) {
	vals := make([]string, 0, len(names))
	for _, n := range names {
		var s string
		if v, ok := attrs[n]; !ok || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
			return "", false
		}
		vals = append(vals, s)
	}
	if len(vals) == 1 {
		return vals[0], true
	}
	return ImportID(vals...), true
}

// HCLValue writes a known string, number, bool or collection of strings as HCL.
func HCLValue(v tftypes.Value) (string, bool) {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		if v.As(&s) != nil {
			return "", false
		}
		return HCLString(s), true
	case v.Type().Is(tftypes.Bool):
		var b bool
		if v.As(&b) != nil {
			return "", false
		}
		return strconv.FormatBool(b), true
	case v.Type().Is(tftypes.Number):
		var f big.Float
		if v.As(&f) != nil {
			return "", false
		}
		return f.Text('f', -1), true
	case v.Type().Is(tftypes.Set{}) || v.Type().Is(tftypes.List{}):
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return "", false
		}
		out := make([]string, 0, len(elems))
		for _, e := range elems {
			s, ok := HCLValue(e)
			if !ok {
				return "", false
			}
			out = append(out, s)
		}
		sort.Strings(out)
		return "[" + strings.Join(out, ", ") + "]", true
	}
	return "", false
}

// HCLString writes s as an HCL string literal.
func HCLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r) // $${ and %%{ are a literal ${ and %{
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ShellQuote writes s as one POSIX shell word.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && !strings.ContainsRune("_.-/:@+=,", r)
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ReadByOIDOrName reads an object with read by its OID when the model has one,
// and by name when it has none or that finds nothing (read takes the OID, or 0
// and the name).
func ReadByOIDOrName[T any](oid types.Int64, name string, read func(oid uint32, name string) (*T, error)) (*T, error) {
	if !oid.IsNull() && !oid.IsUnknown() {
		if v, err := read(uint32(oid.ValueInt64()), ""); err != nil || v != nil {
			return v, err
		}
	}
	return read(0, name)
}

// CreateFromSpec creates an object in database db from the spec its plan
// describes (what names the kind in the error).
func CreateFromSpec[S, T any](ctx context.Context, db string, spec func(context.Context, *diag.Diagnostics) S,
	create func(context.Context, string, S) (*T, error), what string) diag.Diagnostics {
	var diags diag.Diagnostics
	s := spec(ctx, &diags)
	if diags.HasError() {
		return diags
	}
	_, err := create(ctx, db, s)
	return Failed("Could not create "+what, err)
}

// UpdateFromSpec changes the object with OID oid in database db to the spec
// its plan describes.
func UpdateFromSpec[S, T any](ctx context.Context, db string, oid uint32, spec func(context.Context, *diag.Diagnostics) S,
	update func(context.Context, string, uint32, S) (*T, error), what string) diag.Diagnostics {
	var diags diag.Diagnostics
	s := spec(ctx, &diags)
	if diags.HasError() {
		return diags
	}
	_, err := update(ctx, db, oid, s)
	return Failed("Could not update "+what, err)
}

// Failed is an error diagnostic for err (none when err is nil). It keeps
// err: ErrorOf gives it back.
func Failed(summary string, err error) diag.Diagnostics {
	if err == nil {
		return nil
	}
	return diag.Diagnostics{failedDiag{diag.NewErrorDiagnostic(summary, err.Error()), err}}
}

// failedDiag is the error diagnostic of Failed: it keeps the error, so that
// the skeleton can tell what went wrong (an object that exists already).
type failedDiag struct {
	diag.ErrorDiagnostic
	err error
}

func (d failedDiag) Equal(o diag.Diagnostic) bool {
	return o != nil && d.Severity() == o.Severity() && d.Summary() == o.Summary() && d.Detail() == o.Detail()
}

// FinishCreate ends a Create whose object now exists in PostgreSQL. It first
// records in the state what the plan says of the object (computed values not
// known yet as null), then reads the object back into model and saves that.
//
// When the read-back fails, the recorded state stays and the error is
// returned: Terraform keeps the object, marked tainted, and replaces it on the
// next apply. Without the record the object would be an orphan: created but
// unknown to Terraform, so the next apply would fail with "already exists".
func FinishCreate(ctx context.Context, resp *resource.CreateResponse, model any, what string, fault func(what string) error, readBack func() (bool, diag.Diagnostics)) {
	if d := RecordState(ctx, &resp.State, model); d.HasError() {
		resp.Diagnostics.Append(d...)
		return
	}
	var found bool
	var d diag.Diagnostics
	if fault != nil {
		if err := fault(what); err != nil {
			d.AddError("Could not read back", err.Error())
		}
	}
	if !d.HasError() {
		found, d = readBack()
	}
	if !d.HasError() && !found {
		d.AddError("Created object vanished", fmt.Sprintf("%s was created but cannot be read back: it was dropped by someone else meanwhile.", what))
	}
	if d.HasError() {
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not read back",
			fmt.Sprintf("%s was created, but reading it back failed (see the error above). It is recorded in the state as tainted, so Terraform does not lose track of it; the next apply replaces it.", what))
		return
	}
	resp.Diagnostics.Append(SetFrom(ctx, resp.State.Schema.Type, model, resp.State.Set)...)
}

// RecordState sets the state to model with every unknown value made null, so
// that it can be saved as it is (a state holds no unknown values).
func RecordState(ctx context.Context, state *tfsdk.State, model any) diag.Diagnostics {
	diags := state.Set(ctx, model)
	if diags.HasError() {
		return diags
	}
	raw, err := tftypes.Transform(state.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("Could not record the new object", err.Error())
		return diags
	}
	state.Raw = raw
	return diags
}

// ErrorOf is the error a diagnostic made by Failed carries (nil for any other
// diagnostic): the skeleton asks PostgreSQL's error classes about it (an
// object that exists already).
func ErrorOf(d diag.Diagnostic) error {
	if f, ok := d.(failedDiag); ok {
		return f.err
	}
	return nil
}
