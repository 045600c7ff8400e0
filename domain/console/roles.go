package console

import "fmt"

// Kind is who an account works for: Tenure (an operator) or a seller (a
// seller user).
type Kind string

// The kinds of account.
const (
	Operator   Kind = "operator"
	SellerUser Kind = "seller_user"
)

// Role is what an account may do in the console.
type Role string

// An operator reviews risk, works on money or administers the console; a
// seller user administers their seller's portal or sells as an agent.
const (
	Reviewer Role = "reviewer"
	Finance  Role = "finance"
	Admin    Role = "admin"
	Agent    Role = "agent"
)

// OperatorRoles are the roles an operator may have.
var OperatorRoles = []Role{Reviewer, Finance, Admin}

// ParseOperatorRole is the operator role a name gives, or an error listing
// the roles.
func ParseOperatorRole(name string) (Role, error) {
	for _, r := range OperatorRoles {
		if string(r) == name {
			return r, nil
		}
	}
	return "", fmt.Errorf("%q is not an operator role: give reviewer, finance or admin", name)
}

// SellerRoles are the roles a seller user may have.
var SellerRoles = []Role{Admin, Agent}

// ParseSellerRole is the seller user role a name gives, or an error listing
// the roles.
func ParseSellerRole(name string) (Role, error) {
	for _, r := range SellerRoles {
		if string(r) == name {
			return r, nil
		}
	}
	return "", fmt.Errorf("%q is not a seller user role: give admin or agent", name)
}
