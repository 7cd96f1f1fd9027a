// Package typesx is memdir's vocabulary: the four content types a memory can
// have, how fast each one ages, and the scopes an instruction file can come
// from. It is pure data and small functions; it does no I/O.
package typesx

import (
	"fmt"
	"strings"
	"time"
)

// Type is the content type of a memory topic.
type Type string

// The four content types, in the order memdir lists them.
const (
	User      Type = "user"
	Feedback  Type = "feedback"
	Reference Type = "reference"
	Project   Type = "project"
)

// Types lists every content type in index order: what is about the person
// first, project news last, so the index cuts the oldest news first.
var Types = []Type{User, Feedback, Reference, Project}

type info struct {
	meaning string
	aging   Aging
}

// Aging says how quickly memories of a type go stale.
type Aging struct {
	// Label is a short word for the pace: "slow", "medium", "fast".
	Label string
	// ReviewAfter is how old a memory of this type can get before it is
	// worth checking again. Zero means it does not age by itself.
	ReviewAfter time.Duration
}

const day = 24 * time.Hour

var table = map[Type]info{
	User: {
		meaning: "who the person is: role, expertise, preferences and how they like to work",
		aging:   Aging{Label: "slow", ReviewAfter: 365 * day},
	},
	Feedback: {
		meaning: "guidance the person gave about how to do the work: corrections, rules, what to avoid and why",
		aging:   Aging{Label: "slow", ReviewAfter: 180 * day},
	},
	Reference: {
		meaning: "where to find things outside the code: dashboards, tickets, docs, channels, systems",
		aging:   Aging{Label: "medium", ReviewAfter: 90 * day},
	},
	Project: {
		meaning: "facts about the work in flight that the code does not show: goals, deadlines, decisions, incidents",
		aging:   Aging{Label: "fast", ReviewAfter: 30 * day},
	},
}

// Meaning returns a one-line description of what memories of type t hold.
func (t Type) Meaning() string { return table[t].meaning }

// Aging returns how quickly memories of type t go stale.
func (t Type) Aging() Aging { return table[t].aging }

// Rank is t's position in Types; unknown types sort last.
func (t Type) Rank() int {
	for i, x := range Types {
		if x == t {
			return i
		}
	}
	return len(Types)
}

// Valid reports whether t is one of the four content types.
func (t Type) Valid() bool {
	_, ok := table[t]
	return ok
}

// String returns the type's name.
func (t Type) String() string { return string(t) }

// Names returns the type names joined for messages: "user, feedback, ...".
func Names() string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// UnknownTypeError reports a type name that is not one of the four.
type UnknownTypeError struct {
	Name string
}

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("unknown type %q: use one of %s", e.Name, Names())
}

// Parse returns the type named s, in any case and with surrounding space
// ignored, or an *UnknownTypeError listing the valid types.
func Parse(s string) (Type, error) {
	t := Type(strings.ToLower(strings.TrimSpace(s)))
	if !t.Valid() {
		return "", &UnknownTypeError{Name: s}
	}
	return t, nil
}

// Scope is where an instruction file comes from.
type Scope string

// The instruction-file scopes, from the widest to the narrowest.
const (
	ScopeManaged Scope = "managed" // installed by an administrator for every user
	ScopeUser    Scope = "user"    // the person's own files, for every project
	ScopeTeam    Scope = "team"    // shared by a team outside the project
	ScopeProject Scope = "project" // committed with the project
	ScopeLocal   Scope = "local"   // in the project but not committed
	ScopeAuto    Scope = "auto"    // auto memory kept by memdir
	ScopeExtra   Scope = "extra"   // given on the command line for one session
)

// Scopes lists the scopes in loading order.
var Scopes = []Scope{ScopeManaged, ScopeUser, ScopeTeam, ScopeProject, ScopeLocal, ScopeAuto, ScopeExtra}

// ParseScope returns the scope named s, in any case.
func ParseScope(s string) (Scope, error) {
	sc := Scope(strings.ToLower(strings.TrimSpace(s)))
	for _, x := range Scopes {
		if x == sc {
			return sc, nil
		}
	}
	names := make([]string, len(Scopes))
	for i, x := range Scopes {
		names[i] = string(x)
	}
	return "", fmt.Errorf("unknown scope %q: use one of %s", s, strings.Join(names, ", "))
}
