package risk

import (
	"reflect"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
)

// variables are the CEL variables of a condition: the parts of a Snapshot,
// typed by their Go types (package risk's Offer, Line, Customer, Seller,
// Exposure), whose fields CEL knows by their JSON names. A condition that
// names a variable or field that does not exist, or compares values of
// different types, fails to compile.
var variables = []struct {
	name string
	typ  reflect.Type
}{
	{"offer", reflect.TypeFor[Offer]()},
	{"customer", reflect.TypeFor[Customer]()},
	{"seller", reflect.TypeFor[Seller]()},
	{"exposure", reflect.TypeFor[Exposure]()},
}

// environment is the CEL environment every rule set compiles in: the
// variables, and the strings, lists, sets and math extensions.
var environment = sync.OnceValues(func() (*cel.Env, error) {
	opts := []cel.EnvOption{
		ext.NativeTypes(ext.ParseStructTag("json"), reflect.TypeFor[Offer](), reflect.TypeFor[Line](),
			reflect.TypeFor[Customer](), reflect.TypeFor[Seller](), reflect.TypeFor[Exposure]()),
		ext.Strings(), ext.Lists(), ext.Sets(), ext.Math(),
	}
	for _, v := range variables {
		opts = append(opts, cel.Variable(v.name, cel.ObjectType("risk."+v.typ.Name())))
	}
	return cel.NewEnv(opts...)
})

// activation binds a snapshot's parts to the variables.
func (s *Snapshot) activation() map[string]any {
	return map[string]any{"offer": s.Offer, "customer": s.Customer, "seller": s.Seller, "exposure": s.Exposure}
}
