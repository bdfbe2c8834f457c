package tfkit

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (Terraform 1.12 and later). Every resource names its
// object by some of its own attributes (Identified.IdentityAttributes): a
// role by `name`, a schema by `database` and `name`, a grant by `role`,
// `database`, `schema`, `object_type`, `objects` and `columns`. The identity
// holds their values as the state does (a set as a sorted list), so the
// skeleton keeps it without help from the resource: it derives the identity
// schema from the resource schema, sets the identity whenever it saves a
// state, and imports by identity by copying the identity into the state that
// Read then completes. A resource named by `id` alone (postgresql_function:
// `<database>.<schema>.<name>(<types>)`) is imported by identity as by ID.
//
// Objects that PostgreSQL renames in place (roles, databases, schemas, ...)
// change identity with the rename, so every resource declares its identity
// mutable (SetMetadata).

// Identified is what the resource of an object with an identity implements.
type Identified interface {
	// IdentityAttributes are the names of the state attributes that name the
	// object, in the order the documentation lists them.
	IdentityAttributes() []string
}

// SetMetadata sets the type name (<provider>_<kind>) and the behaviours every
// resource shares.
func SetMetadata(req resource.MetadataRequest, resp *resource.MetadataResponse, kind string) {
	resp.TypeName = req.ProviderTypeName + "_" + kind
	resp.ResourceBehavior.MutableIdentity = true // renames in place change the names that identify the object
}

// IdentitySchemaOf derives the identity schema of a resource from its
// schema: a string, number or bool attribute of the same name, a list of
// strings for a set or list; required for import when the argument is
// required. The skeleton's IdentitySchema calls it.
func IdentitySchemaOf(ctx context.Context, obj any) (identityschema.Schema, diag.Diagnostics) {
	var diags diag.Diagnostics
	id, ok1 := obj.(Identified)
	res, ok2 := obj.(resource.Resource)
	if !ok1 || !ok2 {
		diags.AddError("Resource without identity", fmt.Sprintf("%T declares no identity attributes (IdentityAttributes)", obj))
		return identityschema.Schema{}, diags
	}
	var sr resource.SchemaResponse
	res.Schema(ctx, resource.SchemaRequest{}, &sr)
	out := identityschema.Schema{Version: 0, Attributes: map[string]identityschema.Attribute{}}
	for _, name := range id.IdentityAttributes() {
		a, ok := sr.Schema.Attributes[name]
		if !ok {
			diags.AddError("Unknown identity attribute", fmt.Sprintf("%T: identity attribute %q is not an attribute of the resource", obj, name))
			continue
		}
		// an identity by id alone needs it (postgresql_function)
		required := a.IsRequired() || name == "id"
		desc := a.GetDescription()
		if desc == "" {
			desc = a.GetMarkdownDescription()
		}
		switch a.(type) {
		case schema.StringAttribute:
			out.Attributes[name] = identityschema.StringAttribute{RequiredForImport: required, OptionalForImport: !required, Description: desc}
		case schema.Int64Attribute:
			out.Attributes[name] = identityschema.Int64Attribute{RequiredForImport: required, OptionalForImport: !required, Description: desc}
		case schema.BoolAttribute:
			out.Attributes[name] = identityschema.BoolAttribute{RequiredForImport: required, OptionalForImport: !required, Description: desc}
		case schema.SetAttribute, schema.ListAttribute:
			out.Attributes[name] = identityschema.ListAttribute{ElementType: types.StringType, RequiredForImport: required, OptionalForImport: !required, Description: desc}
		default:
			diags.AddError("Unsupported identity attribute", fmt.Sprintf("%T: identity attribute %q is a %T", obj, name, a))
		}
	}
	return out, diags
}

// SetIdentity sets the identity from the state (no-op when Terraform keeps no
// identity: before 1.12).
func SetIdentity(ctx context.Context, obj any, state tfsdk.State, identity *tfsdk.ResourceIdentity) diag.Diagnostics {
	id, ok := obj.(Identified)
	if !ok || identity == nil || identity.Schema == nil || state.Raw.IsNull() {
		return nil
	}
	// On the values as the protocol carries them: a refresh sets the identity
	// of every resource, and the framework's path-by-path setters cost more
	// than the read itself.
	var diags diag.Diagnostics
	var attrs map[string]tftypes.Value
	if err := state.Raw.As(&attrs); err != nil {
		diags.AddError("Reading the state for the identity", err.Error())
		return diags
	}
	typ, ok := identity.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		diags.AddError("Setting the identity", fmt.Sprintf("%T: the identity schema is not an object", obj))
		return diags
	}
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for _, name := range id.IdentityAttributes() {
		v, err := identityValue(attrs[name], typ.AttributeTypes[name])
		if err != nil {
			diags.AddAttributeError(path.Root(name), "Setting the identity", err.Error())
			return diags
		}
		vals[name] = v
	}
	identity.Raw = tftypes.NewValue(typ, vals)
	return diags
}

// identityValue is a state value as its identity attribute holds it: the
// same value, or a set of strings as a sorted list.
func identityValue(v tftypes.Value, want tftypes.Type) (tftypes.Value, error) {
	if v.Type() == nil || v.IsNull() {
		return tftypes.NewValue(want, nil), nil
	}
	if !v.IsKnown() {
		return tftypes.NewValue(want, tftypes.UnknownValue), nil
	}
	if !v.Type().Is(tftypes.Set{}) {
		return v, nil
	}
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return tftypes.Value{}, err
	}
	strs := make([]string, 0, len(elems))
	for _, e := range elems {
		var s string
		if err := e.As(&s); err != nil {
			return tftypes.Value{}, err
		}
		strs = append(strs, s)
	}
	slices.Sort(strs)
	out := make([]tftypes.Value, len(strs))
	for i, s := range strs {
		out[i] = tftypes.NewValue(tftypes.String, s)
	}
	return tftypes.NewValue(want, out), nil
}

// ImportByIdentity handles an import by identity (an `import` block with
// `identity`): the identity's attributes go to the state, which Read then
// completes. It reports false for an import by ID, which the resource's
// ImportByID handles.
func ImportByIdentity(ctx context.Context, obj any, req resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id, ok := obj.(Identified)
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() || !ok {
		return false
	}
	for _, name := range id.IdentityAttributes() {
		var v attr.Value
		if resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(name), &v)...); resp.Diagnostics.HasError() {
			return true
		}
		var target attr.Value
		if resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root(name), &target)...); resp.Diagnostics.HasError() {
			return true
		}
		if _, isSet := target.(types.Set); isSet {
			if l, ok := v.(types.List); ok {
				s, d := types.SetValue(types.StringType, l.Elements())
				if l.IsNull() {
					s, d = types.SetNull(types.StringType), nil
				}
				resp.Diagnostics.Append(d...)
				v = s
			}
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
	return true
}
