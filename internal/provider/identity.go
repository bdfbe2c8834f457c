package provider

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
)

// Resource identity (Terraform 1.12 and later). Every resource names its
// object by some of its own attributes (identified.identityAttributes): a
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
// mutable (setMetadata).

// identified is what the resource of an object with an identity implements.
type identified interface {
	// identityAttributes are the names of the state attributes that name the
	// object, in the order the documentation lists them.
	identityAttributes() []string
}

// setMetadata sets the type name (postgresql_<kind>) and the behaviours every
// resource shares.
func setMetadata(req resource.MetadataRequest, resp *resource.MetadataResponse, kind string) {
	resp.TypeName = req.ProviderTypeName + "_" + kind
	resp.ResourceBehavior.MutableIdentity = true // renames in place change the names that identify the object
}

// IdentitySchema derives the identity schema from the resource schema: a
// string, number or bool attribute of the same name, a list of strings for a
// set or list; required for import when the argument is required.
func (l lifecycle[M]) IdentitySchema(ctx context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema, resp.Diagnostics = identitySchemaOf(ctx, l.obj)
}

func identitySchemaOf(ctx context.Context, obj any) (identityschema.Schema, diag.Diagnostics) {
	var diags diag.Diagnostics
	id, ok1 := obj.(identified)
	res, ok2 := obj.(resource.Resource)
	if !ok1 || !ok2 {
		diags.AddError("Resource without identity", fmt.Sprintf("%T declares no identity attributes (identityAttributes)", obj))
		return identityschema.Schema{}, diags
	}
	var sr resource.SchemaResponse
	res.Schema(ctx, resource.SchemaRequest{}, &sr)
	out := identityschema.Schema{Version: 0, Attributes: map[string]identityschema.Attribute{}}
	for _, name := range id.identityAttributes() {
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

// setIdentity sets the identity from the state (no-op when Terraform keeps no
// identity: before 1.12).
func setIdentity(ctx context.Context, obj any, state tfsdk.State, identity *tfsdk.ResourceIdentity) diag.Diagnostics {
	id, ok := obj.(identified)
	if !ok || identity == nil || state.Raw.IsNull() {
		return nil
	}
	var diags diag.Diagnostics
	for _, name := range id.identityAttributes() {
		var v attr.Value
		if diags.Append(state.GetAttribute(ctx, path.Root(name), &v)...); diags.HasError() {
			return diags
		}
		if s, ok := v.(types.Set); ok {
			v = sortedList(ctx, s, &diags)
		}
		diags.Append(identity.SetAttribute(ctx, path.Root(name), v)...)
	}
	return diags
}

// sortedList is a set of strings as a sorted list (null stays null).
func sortedList(ctx context.Context, s types.Set, diags *diag.Diagnostics) types.List {
	if s.IsNull() || s.IsUnknown() {
		return types.ListNull(types.StringType)
	}
	elems := setStrings(ctx, s)
	slices.Sort(elems)
	l, d := types.ListValueFrom(ctx, types.StringType, elems)
	diags.Append(d...)
	return l
}

// importByIdentity handles an import by identity (an `import` block with
// `identity`): the identity's attributes go to the state, which Read then
// completes. It reports false for an import by ID, which the resource's
// importState handles.
func importByIdentity(ctx context.Context, obj any, req resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id, ok := obj.(identified)
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() || !ok {
		return false
	}
	for _, name := range id.identityAttributes() {
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
