package model

// Package structural builds its nodes from Props and keeps each node's Props
// unexported, so that its public model shows only the structural keywords.
// The packages that need a node's value validations, junctors or CEL rules
// reach them through these two functions, which package structural sets in
// its init; internal/link wraps them with their real types.
var (
	// NewStructural builds the structural model of p: a
	// *structural.Schema, or an error for keywords no structural schema
	// can hold.
	NewStructural func(p *Props) (any, error)
	// StructuralProps returns the Props a *structural.Schema was built
	// from (nil for a node built by hand).
	StructuralProps func(node any) *Props
)
