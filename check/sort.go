package check

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
)

// SortErrors sorts errors by field path, then type, then detail: the order
// of the command's JSON output (and of package validation's results).
func SortErrors(errs field.ErrorList) { errorsort.Sort(errs) }
