package validation

// The logical junctors (anyOf, oneOf, allOf, not) of the walk: which branch
// errors kube-openapi's engine keeps, by match count, with the probing that
// avoids building errors it would drop.

import (
	"fmt"
	"slices"
	"strings"

	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"
)

// junctors is the engine's junctor validator (anyOf, oneOf, allOf, not); it
// returns the validator's own count.
//
// Branches whose errors may be dropped are first probed quietly; only the
// branch whose errors the engine reports is walked again to build them.
// Where an error message could start with IMPORTANT! (the engine then keeps
// it from any branch), junctorsExact builds every branch's errors.
func (w *walker) junctors(n *cnode, p path, v any) int {
	if mayBeImportant(p) {
		if !w.quiet {
			return w.junctorsExact(n, p, v)
		}
		w.quiet = false
		e0 := len(w.errs)
		mc := w.junctorsExact(n, p, v)
		w.nerr += len(w.errs) - e0
		w.errs = w.errs[:e0]
		w.quiet = true
		return mc
	}
	mc := 0
	if len(n.anyOf) > 0 {
		best, bestMC, succeeded := -1, 0, false
		for i, b := range n.anyOf {
			ok, bmc := w.probe(b, p, v)
			if ok {
				succeeded = true
				mc += bmc
				break
			}
			if best < 0 || bmc > bestMC {
				best, bestMC = i, bmc
			}
		}
		if !succeeded {
			if w.failed() {
				w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate at least one schema (anyOf)", p.String()))
				w.node(n.anyOf[best], p, v)
			}
			mc += bestMC
		}
	}
	if len(n.oneOf) > 0 {
		best, bestMC, validated, firstMC := -1, 0, 0, 0
		for i, b := range n.oneOf {
			ok, bmc := w.probe(b, p, v)
			if ok {
				validated++
				if validated == 1 {
					firstMC = bmc
				}
				best = -1
				continue
			}
			if validated == 0 && (best < 0 || bmc > bestMC) {
				best, bestMC = i, bmc
			}
		}
		if validated == 1 {
			mc += firstMC
		} else {
			if w.failed() {
				why := "Found none valid"
				if validated > 1 {
					why = fmt.Sprintf("Found %d valid alternatives", validated)
				}
				w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate one and only one schema (oneOf). %s", p.String(), why))
				if best >= 0 {
					w.node(n.oneOf[best], p, v)
				}
			}
			if best >= 0 {
				mc += bestMC
			}
		}
	}
	if len(n.allOf) > 0 {
		validated := 0
		for _, b := range n.allOf {
			m := w.mark()
			mc += w.node(b, p, v)
			if w.mark() == m {
				validated++
			}
		}
		if validated != len(n.allOf) && w.failed() {
			why := ""
			if validated == 0 {
				why = ". None validated"
			}
			w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate all the schemas (allOf)%s", p.String(), why))
		}
	}
	if n.not != nil {
		if ok, _ := w.probe(n.not, p, v); ok && w.failed() {
			w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must not validate the schema (not)", p.String()))
		}
	}
	return mc + 1
}

// mark returns a position that changes when a failure is recorded.
func (w *walker) mark() int {
	if w.quiet {
		return w.nerr
	}
	return len(w.errs)
}

// probe walks n quietly and reports whether v is valid, with the count.
func (w *walker) probe(n *cnode, p path, v any) (bool, int) {
	quiet, n0 := w.quiet, w.nerr
	w.quiet = true
	mc := w.node(n, p, v)
	ok := w.nerr == n0
	w.quiet, w.nerr = quiet, n0
	return ok, mc
}

// mayBeImportant reports whether an error at p or below could have a
// message starting with IMPORTANT!: messages start with their path, so
// only below the root path "" or a top-level property named IMPORTANT!….
func mayBeImportant(p path) bool {
	for _, e := range p {
		if e.kind != pathProperty {
			return false
		}
		if e.name != "" {
			return strings.HasPrefix(e.name, importantPrefix)
		}
	}
	return true
}

// junctorsExact is the engine's junctor validator (anyOf, oneOf, allOf,
// not) step by step, with the engine's keeping of IMPORTANT! errors; it
// returns the validator's own count. It runs only when errors are built.
func (w *walker) junctorsExact(n *cnode, p path, v any) int {
	mc := 0
	// Errors of branches whose message starts with IMPORTANT! are kept
	// whatever the branch outcome, as the engine keeps them.
	var keepAll, keepOne, keepAny []error

	if len(n.anyOf) > 0 {
		start := len(w.errs)
		best, bestMC, succeeded := false, 0, false
		for _, b := range n.anyOf {
			b0 := len(w.errs)
			bmc := w.node(b, p, v)
			keepAny = appendImportant(keepAny, w.errs[b0:])
			if len(w.errs) == b0 {
				w.errs = w.errs[:start]
				best, succeeded, keepAny = false, true, nil
				mc += bmc
				break
			}
			if !best || bmc > bestMC {
				w.errs = append(w.errs[:start], w.errs[b0:]...)
				best, bestMC = true, bmc
			} else {
				w.errs = w.errs[:b0]
			}
		}
		if !succeeded {
			w.errs = slices.Insert(w.errs, start, error(openapierrors.New(openapierrors.CompositeErrorCode,
				"%q must validate at least one schema (anyOf)", p.String())))
			mc += bestMC
		}
	}

	if len(n.oneOf) > 0 {
		start := len(w.errs)
		best, bestMC, validated, firstMC := false, 0, 0, 0
		for _, b := range n.oneOf {
			b0 := len(w.errs)
			bmc := w.node(b, p, v)
			keepOne = appendImportant(keepOne, w.errs[b0:])
			if len(w.errs) == b0 {
				validated++
				if validated == 1 {
					firstMC = bmc
				}
				w.errs = w.errs[:start]
				best, keepOne = false, nil
				continue
			}
			if validated == 0 && (!best || bmc > bestMC) {
				w.errs = append(w.errs[:start], w.errs[b0:]...)
				best, bestMC = true, bmc
			} else {
				w.errs = w.errs[:b0]
			}
		}
		if validated == 1 {
			mc += firstMC
		} else {
			why := "Found none valid"
			if validated > 1 {
				why = fmt.Sprintf("Found %d valid alternatives", validated)
			}
			w.errs = slices.Insert(w.errs, start, error(openapierrors.New(openapierrors.CompositeErrorCode,
				"%q must validate one and only one schema (oneOf). %s", p.String(), why)))
			if best {
				mc += bestMC
			}
		}
	}

	if len(n.allOf) > 0 {
		validated := 0
		for _, b := range n.allOf {
			b0 := len(w.errs)
			mc += w.node(b, p, v)
			keepAll = appendImportant(keepAll, w.errs[b0:])
			if len(w.errs) == b0 {
				validated++
			}
		}
		if validated != len(n.allOf) {
			why := ""
			if validated == 0 {
				why = ". None validated"
			}
			w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate all the schemas (allOf)%s", p.String(), why))
		}
	}

	if n.not != nil {
		b0 := len(w.errs)
		w.node(n.not, p, v)
		valid := len(w.errs) == b0
		w.errs = w.errs[:b0]
		if valid {
			w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must not validate the schema (not)", p.String()))
		}
	}

	w.errs = append(w.errs, keepAll...)
	w.errs = append(w.errs, keepOne...)
	w.errs = append(w.errs, keepAny...)
	return mc + 1
}

// importantPrefix marks the branch errors the engine keeps from failed
// junctor branches whatever their match count (it strips the prefix).
const importantPrefix = "IMPORTANT!"

type plainError string

func (e plainError) Error() string { return string(e) }

func appendImportant(dst, errs []error) []error {
	for _, e := range errs {
		if msg := e.Error(); strings.HasPrefix(msg, importantPrefix) {
			dst = append(dst, plainError(strings.TrimPrefix(msg, importantPrefix)))
		}
	}
	return dst
}
