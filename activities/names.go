package activities

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
)

// prefixes are the name prefixes of each activity group: an activity is
// registered and called as its group's prefix plus its method's name
// ("webhook.SendAttempt"), the names histories and running workflows carry.
var prefixes = map[string]string{
	"Deliveries":      "webhook.",
	"ProductImports":  "catalog.",
	"CSVImports":      "catalog.",
	"SandboxFixtures": "sandbox.",
	"Offers":          "offer.",
	"Orders":          "order.",
	"Contracts":       "contract.",
	"Collections":     "collections.",
	"Payouts":         "payouts.",
}

// renamed are the activities whose methods were renamed after histories
// recorded them: they keep their recorded names. The order's accept (the
// spec's word, the update's and the table's) was called confirm.
var renamed = map[string]string{
	"Orders.Accept": "order.Confirm",
}

// Name is the registered name of an activity, given as a method value of
// one of this package's groups (a.SendAttempt, with a nil a as well): the
// name the worker registers it under and the workflows call it by.
func Name(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		panic(fmt.Sprintf("activities: %T is not an activity method", fn))
	}
	full := runtime.FuncForPC(v.Pointer()).Name()
	// A method value is named <package>.(*<Group>).<Method>-fm.
	pkg, rest, ok := strings.Cut(full, ".(*")
	group, method, found := strings.Cut(rest, ").")
	method, isValue := strings.CutSuffix(method, "-fm")
	prefix, known := prefixes[group]
	if !ok || !found || !isValue || !known || pkg != reflect.TypeFor[Deliveries]().PkgPath() {
		panic(fmt.Sprintf("activities: %s is not a method value of an activity group", full))
	}
	if name, ok := renamed[group+"."+method]; ok {
		return name
	}
	return prefix + method
}
