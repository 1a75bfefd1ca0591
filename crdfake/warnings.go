package crdfake

import (
	"context"
	"fmt"
	"strings"

	"github.com/crdschema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// standardFinalizers are the finalizer names Kubernetes itself uses, which
// need no domain.
var standardFinalizers = map[string]bool{"orphan": true, "foregroundDeletion": true, "kubernetes": true}

// warnFinalizers sends the warnings of the custom resource strategy for
// the finalizers a create or an update of the main resource adds (old is
// nil on create): names that are not qualified names, and names without a
// domain and path.
func (s *semantics) warnFinalizers(ctx context.Context, obj, old map[string]any) {
	if s.warn == nil {
		return
	}
	had := map[string]bool{}
	for _, f := range finalizers(old) {
		had[f] = true
	}
	for _, f := range finalizers(obj) {
		if had[f] {
			continue
		}
		had[f] = true
		for _, w := range finalizerWarnings(f) {
			s.warn.HandleWarningHeaderWithContext(ctx, 299, "-", w)
		}
	}
}

func finalizerWarnings(name string) []string {
	const path = "metadata.finalizers"
	var out []string
	for _, msg := range validation.IsQualifiedName(name) {
		out = append(out, fmt.Sprintf("%s: %q: %s", path, name, msg))
	}
	if strings.Contains(name, "/") || standardFinalizers[name] {
		return out
	}
	if strings.Contains(name, ".") {
		return append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", path, name))
	}
	return append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", path, name))
}

// warnPruned sends the warnings of a result's pruned and duplicate
// fields. A deprecated version's warning is not among them: targetOf
// sends it once for every request, reads included, as the apiserver does.
func (s *semantics) warnPruned(ctx context.Context, r crdschema.Result) {
	if s.warn == nil {
		return
	}
	r.Deprecation = ""
	for _, w := range r.Warnings() {
		s.warn.HandleWarningHeaderWithContext(ctx, 299, "-", w)
	}
}
