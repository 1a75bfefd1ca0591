package main

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// storedCRDs reads the CRDs of check --old: the CRDs the cluster already
// stores, by metadata.name (the first document with a name wins). Other
// documents and CRDs without a name are ignored with a note on stderr; ok
// is false when a document could not be read or decoded.
func storedCRDs(paths []string, in *inputs, stderr io.Writer) (map[string]*crdschema.CRD, bool, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, false, err
	}
	out := map[string]*crdschema.CRD{}
	ok := true
	for _, f := range files {
		docs, readOK := readInput(f, in, stderr)
		ok = ok && readOK
		for i := range docs {
			d := &docs[i]
			if !d.IsCRD() {
				fmt.Fprintf(stderr, "crdschema: note: %s:%d: --old: not a CustomResourceDefinition, ignored\n", d.File, d.Line)
				continue
			}
			c, err := d.CRD()
			switch {
			case err != nil:
				reportError(stderr, err)
				ok = false
			case c.Name() == "":
				fmt.Fprintf(stderr, "crdschema: note: %s:%d: --old: a CustomResourceDefinition without a name, ignored\n", d.File, d.Line)
			case out[c.Name()] == nil:
				out[c.Name()] = c
			}
		}
	}
	return out, ok, nil
}

// checkCRD checks one CRD: as an update of the stored CRD of the same
// name when there is one, as a create otherwise. stored is nil without
// --old; then the line has no operation.
func checkCRD(crd *crdschema.CRD, stored map[string]*crdschema.CRD, r *checkResult) field.ErrorList {
	old := stored[crd.Name()]
	switch {
	case old != nil:
		r.Operation = "UPDATE"
		errs, warnings := crdschema.CheckUpdate(old, crd)
		r.Warnings = warnings
		return errs
	case stored != nil:
		r.Operation = "CREATE"
	}
	r.Warnings = crd.Warnings()
	return crd.Errors()
}
