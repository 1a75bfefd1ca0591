package crdfake

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/crdschema/crdschema"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// CRDs is a set of CustomResourceDefinitions the apiserver would accept,
// compiled once and safe for concurrent use by any number of fake clients.
type CRDs struct {
	crds []*crdschema.CRD
	// warnings holds the deprecation warning of every served deprecated
	// version, as the apiserver sends it on every request of that version.
	warnings map[kschema.GroupVersionKind]string
}

// Parse reads the CustomResourceDefinitions of YAML or JSON documents (any
// number per input, Lists expanded; documents that are not CRDs are
// skipped). It fails on a document that cannot be read and on a CRD the
// apiserver would reject, naming it and its first errors.
func Parse(docs ...[]byte) (*CRDs, error) {
	c := &CRDs{warnings: map[kschema.GroupVersionKind]string{}}
	for i, data := range docs {
		if err := c.add(fmt.Sprintf("document %d", i), data); err != nil {
			return nil, err
		}
	}
	return c, c.done()
}

// ReadFiles is Parse for files and directories (every .yaml, .yml and
// .json file below a directory, in lexical order).
func ReadFiles(paths ...string) (*CRDs, error) {
	c := &CRDs{warnings: map[kschema.GroupVersionKind]string{}}
	for _, p := range paths {
		err := filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (name != p && !isManifest(name)) {
				return err
			}
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			return c.add(name, data)
		})
		if err != nil {
			return nil, err
		}
	}
	return c, c.done()
}

// ReadFS is Parse for the .yaml, .yml and .json files below dir in fsys,
// an embed.FS of an operator's config/crd/bases, say.
func ReadFS(fsys fs.FS, dir string) (*CRDs, error) {
	c := &CRDs{warnings: map[kschema.GroupVersionKind]string{}}
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isManifest(name) {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		return c.add(name, data)
	})
	if err != nil {
		return nil, err
	}
	return c, c.done()
}

func isManifest(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// add reads the CRDs of one input and checks them.
func (c *CRDs) add(name string, data []byte) error {
	docs, err := crdschema.ReadDocuments(name, data)
	if err != nil {
		return err
	}
	for i := range docs {
		if !docs[i].IsCRD() {
			continue
		}
		crd, err := docs[i].CRD()
		if err != nil {
			return err
		}
		if errs := crd.Errors(); len(errs) > 0 {
			return fmt.Errorf("%s:%d: %w", docs[i].File, docs[i].Line, &crdschema.RejectedError{CRD: crd.Name(), Errors: errs})
		}
		c.crds = append(c.crds, crd)
		c.addWarnings(crd)
	}
	return nil
}

// done fails for a set without CRDs, which is most likely a wrong path.
func (c *CRDs) done() error {
	if len(c.crds) == 0 {
		return errors.New("no CustomResourceDefinition found")
	}
	return nil
}

// addWarnings records the deprecation warnings of the CRD's served
// deprecated versions, as the root's CRD.Deprecation words them.
func (c *CRDs) addWarnings(crd *crdschema.CRD) {
	gk := crd.GroupKind()
	for _, v := range crd.ServedVersions() {
		if msg := crd.Deprecation(v); msg != "" {
			c.warnings[gk.WithVersion(v)] = msg
		}
	}
}
