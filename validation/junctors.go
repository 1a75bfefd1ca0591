package validation

// The logical junctors (anyOf, oneOf, allOf, not) of the walk: which branch
// errors kube-openapi's engine keeps, by match count, with the probing that
// avoids building errors it would drop. Each junctor has its own method,
// twice: the probing one and the exact one (junctorsExact).

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
		return w.junctorsImportant(n, p, v)
	}
	mc := 0
	if len(n.anyOf) > 0 {
		mc += w.anyOf(n.anyOf, p, v)
	}
	if len(n.oneOf) > 0 {
		mc += w.oneOf(n.oneOf, p, v)
	}
	if len(n.allOf) > 0 {
		mc += w.allOf(n.allOf, p, v)
	}
	if n.not != nil {
		w.not(n.not, p, v)
	}
	return mc + 1
}

// junctorsImportant runs junctorsExact; when the walk is quiet, it builds
// the errors only to count them.
func (w *walker) junctorsImportant(n *cnode, p path, v any) int {
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

// anyOf probes the branches up to the first valid one; when none is, it
// reports the anyOf error and walks the branch with the highest count
// (the first of equals) to report its errors. It returns the count.
func (w *walker) anyOf(branches []*cnode, p path, v any) int {
	best, bestMC := -1, 0
	for i, b := range branches {
		ok, bmc := w.probe(b, p, v)
		if ok {
			return bmc
		}
		if best < 0 || bmc > bestMC {
			best, bestMC = i, bmc
		}
	}
	if w.failed() {
		w.add(openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate at least one schema (anyOf)", p.String()))
		w.node(branches[best], p, v)
	}
	return bestMC
}

// oneOf probes every branch; unless exactly one is valid, it reports the
// oneOf error and, when none is, walks the branch with the highest count
// to report its errors. It returns the count.
func (w *walker) oneOf(branches []*cnode, p path, v any) int {
	best, bestMC, validated, firstMC := -1, 0, 0, 0
	for i, b := range branches {
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
		return firstMC
	}
	if w.failed() {
		w.add(oneOfError(p, validated))
		if best >= 0 {
			w.node(branches[best], p, v)
		}
	}
	if best >= 0 {
		return bestMC
	}
	return 0
}

// allOf walks every branch, reporting their errors, and the allOf error
// when one fails. It returns the sum of the counts.
func (w *walker) allOf(branches []*cnode, p path, v any) int {
	mc, validated := 0, 0
	for _, b := range branches {
		m := w.mark()
		mc += w.node(b, p, v)
		if w.mark() == m {
			validated++
		}
	}
	if validated != len(branches) && w.failed() {
		w.add(allOfError(p, validated))
	}
	return mc
}

// not probes the branch and reports the not error when it is valid.
func (w *walker) not(branch *cnode, p path, v any) {
	if ok, _ := w.probe(branch, p, v); ok && w.failed() {
		w.add(notError(p))
	}
}

// oneOfError is the engine's oneOf error for validated valid branches.
func oneOfError(p path, validated int) error {
	why := "Found none valid"
	if validated > 1 {
		why = fmt.Sprintf("Found %d valid alternatives", validated)
	}
	return openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate one and only one schema (oneOf). %s", p.String(), why)
}

// allOfError is the engine's allOf error for validated valid branches.
func allOfError(p path, validated int) error {
	why := ""
	if validated == 0 {
		why = ". None validated"
	}
	return openapierrors.New(openapierrors.CompositeErrorCode, "%q must validate all the schemas (allOf)%s", p.String(), why)
}

// notError is the engine's error for a valid not branch.
func notError(p path) error {
	return openapierrors.New(openapierrors.CompositeErrorCode, "%q must not validate the schema (not)", p.String())
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
		if !e.IsField() {
			return false
		}
		if e.Name() != "" {
			return strings.HasPrefix(e.Name(), importantPrefix)
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
		var bmc int
		bmc, keepAny = w.anyOfExact(n.anyOf, p, v)
		mc += bmc
	}
	if len(n.oneOf) > 0 {
		var bmc int
		bmc, keepOne = w.oneOfExact(n.oneOf, p, v)
		mc += bmc
	}
	if len(n.allOf) > 0 {
		var bmc int
		bmc, keepAll = w.allOfExact(n.allOf, p, v)
		mc += bmc
	}
	if n.not != nil {
		w.notExact(n.not, p, v)
	}
	w.errs = append(w.errs, keepAll...)
	w.errs = append(w.errs, keepOne...)
	w.errs = append(w.errs, keepAny...)
	return mc + 1
}

// anyOfExact walks the branches up to the first valid one, keeping only
// the errors of the branch with the highest count, behind the anyOf error,
// when none is valid. It returns the count and the IMPORTANT! errors of the
// failed branches (none when a branch is valid).
func (w *walker) anyOfExact(branches []*cnode, p path, v any) (int, []error) {
	var keep []error
	start := len(w.errs)
	best, bestMC := false, 0
	for _, b := range branches {
		b0 := len(w.errs)
		bmc := w.node(b, p, v)
		keep = appendImportant(keep, w.errs[b0:])
		if len(w.errs) == b0 {
			w.errs = w.errs[:start]
			return bmc, nil
		}
		if !best || bmc > bestMC {
			w.errs = append(w.errs[:start], w.errs[b0:]...)
			best, bestMC = true, bmc
		} else {
			w.errs = w.errs[:b0]
		}
	}
	w.errs = slices.Insert(w.errs, start, error(openapierrors.New(openapierrors.CompositeErrorCode,
		"%q must validate at least one schema (anyOf)", p.String())))
	return bestMC, keep
}

// oneOfExact walks every branch; unless exactly one is valid, it keeps the
// oneOf error and, when none is, the errors of the branch with the highest
// count. It returns the count and the IMPORTANT! errors of the failed
// branches after the last valid one.
func (w *walker) oneOfExact(branches []*cnode, p path, v any) (int, []error) {
	var keep []error
	start := len(w.errs)
	best, bestMC, validated, firstMC := false, 0, 0, 0
	for _, b := range branches {
		b0 := len(w.errs)
		bmc := w.node(b, p, v)
		keep = appendImportant(keep, w.errs[b0:])
		if len(w.errs) == b0 {
			validated++
			if validated == 1 {
				firstMC = bmc
			}
			w.errs = w.errs[:start]
			best, keep = false, nil
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
		return firstMC, keep
	}
	w.errs = slices.Insert(w.errs, start, oneOfError(p, validated))
	if best {
		return bestMC, keep
	}
	return 0, keep
}

// allOfExact walks every branch, keeping their errors, and the allOf error
// when one fails. It returns the sum of the counts and the branches'
// IMPORTANT! errors.
func (w *walker) allOfExact(branches []*cnode, p path, v any) (int, []error) {
	var keep []error
	mc, validated := 0, 0
	for _, b := range branches {
		b0 := len(w.errs)
		mc += w.node(b, p, v)
		keep = appendImportant(keep, w.errs[b0:])
		if len(w.errs) == b0 {
			validated++
		}
	}
	if validated != len(branches) {
		w.add(allOfError(p, validated))
	}
	return mc, keep
}

// notExact walks the branch, drops its errors, and reports the not error
// when it is valid.
func (w *walker) notExact(branch *cnode, p path, v any) {
	b0 := len(w.errs)
	w.node(branch, p, v)
	valid := len(w.errs) == b0
	w.errs = w.errs[:b0]
	if valid {
		w.add(notError(p))
	}
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
