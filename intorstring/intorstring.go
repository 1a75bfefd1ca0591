// Package intorstring recognises the x-kubernetes-int-or-string junctor
// patterns the apiserver tolerates in a structural schema. It reads the
// schema as written (package schema) and sits below package structural,
// whose rules use it.
//
// A node with x-kubernetes-int-or-string: true needs no type. The only places
// where such a node may still mention types inside a logical junctor are the
// two patterns
//
//	anyOf:
//	- type: integer
//	- type: string
//
// and
//
//	allOf:
//	- anyOf:
//	  - type: integer
//	  - type: string
//	- ... zero or more further entries
//
// Each of the two anyOf entries must carry nothing but its type: a format, a
// description, an empty properties map or any other keyword makes it a
// near-miss, which the apiserver treats as an ordinary (non-structural)
// junctor.
package intorstring
