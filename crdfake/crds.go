package crdfake

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/serving"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// CRDs is a set of CustomResourceDefinitions, each checked and compiled
// on the first request of its kind (a test pays for the kinds it uses),
// once, and safe for concurrent use by any number of fake clients.
type CRDs struct {
	kinds map[kschema.GroupKind]*kind
	// order lists the kinds as read, for the REST mapper.
	order []*kind
}

// kind is one CRD as the fake serves it: what the apiserver's handler
// takes from the CRD besides its schemas.
type kind struct {
	crd        *crdschema.CRD
	gk         kschema.GroupKind
	plural     string
	singular   string
	listKind   string
	namespaced bool
	storage    string
	// preserveUnknownFields is the CRD's spec.preserveUnknownFields (a
	// v1beta1 CRD's defaults to true); webhook tells conversion strategy
	// Webhook.
	preserveUnknownFields bool
	webhook               bool
	// versions are the defined versions by name.
	versions map[string]*version
	// managed builds the field managers on first use (managed.go).
	managed fieldManagers
	// at is where the CRD was read (file:line), for its rejection.
	at string
	// checked runs the apiserver's check of the CRD on the first request
	// of the kind; rejected is its answer, nil when it would be accepted.
	checked  sync.Once
	rejected error
}

// version is one defined version of a kind.
type version struct {
	name   string
	served bool
	// deprecation is the warning every request of a deprecated version
	// gets; "" otherwise.
	deprecation string
	// status and scale are the version's subresources (scale nil
	// without).
	status bool
	scale  *serving.ScalePaths
	// selectable are the version's selectable fields (spec.x), which a
	// field selector may name besides metadata.name and
	// metadata.namespace.
	selectable []string
}

// gr is the kind's group and resource, as the apiserver's errors name it
// (localqueues.kueue.x-k8s.io).
func (k *kind) gr() kschema.GroupResource {
	return kschema.GroupResource{Group: k.gk.Group, Resource: k.plural}
}

// Parse reads the CustomResourceDefinitions of YAML or JSON documents (any
// number per input, Lists expanded; documents that are not CRDs are
// skipped). It fails on a document that cannot be read. A CRD is checked
// as the apiserver checks it on the first request of its kind: one the
// apiserver would reject fails every request of its kind (and Objects),
// naming it and its first errors.
func Parse(docs ...[]byte) (*CRDs, error) {
	c := &CRDs{kinds: map[kschema.GroupKind]*kind{}}
	for i, data := range docs {
		if err := c.add(fmt.Sprintf("document %d", i), data); err != nil {
			return nil, err
		}
	}
	return c, c.done()
}

// ReadFiles is Parse for files and directories (every .yaml, .yml and
// .json file below a directory, in lexical order). Relative paths are
// taken from the working directory, which `go test` sets to the test's
// package directory: from internal/controller,
// ReadFiles("../../config/crd/bases") reads a kubebuilder project's CRDs.
func ReadFiles(paths ...string) (*CRDs, error) {
	c := &CRDs{kinds: map[kschema.GroupKind]*kind{}}
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
// an embed.FS of an operator's config/crd/bases, say. A //go:embed
// pattern cannot name a parent directory, so a test below
// internal/controller embeds nothing of config/crd itself: a package in
// config/crd embeds bases and exports the embed.FS, or the test uses
// ReadFiles with a relative path.
func ReadFS(fsys fs.FS, dir string) (*CRDs, error) {
	c := &CRDs{kinds: map[kschema.GroupKind]*kind{}}
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
		k := newKind(crd)
		k.at = fmt.Sprintf("%s:%d", docs[i].File, docs[i].Line)
		if _, dup := c.kinds[k.gk]; dup {
			// The apiserver serves the first CRD of a group and kind.
			continue
		}
		c.kinds[k.gk] = k
		c.order = append(c.order, k)
	}
	return nil
}

// done fails for a set without CRDs, which is most likely a wrong path.
func (c *CRDs) done() error {
	if len(c.kinds) == 0 {
		return errors.New("no CustomResourceDefinition found")
	}
	return nil
}

// accepted checks the kind's CRD as the apiserver does when it is
// created (once, on the first request of the kind): the error names a
// CRD the apiserver would reject and its first errors.
func (k *kind) accepted() error {
	k.checked.Do(func() {
		if errs := k.crd.Errors(); len(errs) > 0 {
			k.rejected = fmt.Errorf("%s: %w", k.at, &crdschema.RejectedError{CRD: k.crd.Name(), Errors: errs})
		}
	})
	return k.rejected
}

// newKind reads what the fake needs of an accepted CRD: its names and
// scope, its versions' subresources, selectable fields and deprecation
// warnings.
func newKind(crd *crdschema.CRD) *kind {
	k := &kind{
		crd:      crd,
		gk:       crd.GroupKind(),
		storage:  crd.StorageVersion(),
		webhook:  crd.ConversionStrategy() == "Webhook",
		versions: map[string]*version{},
	}
	served := map[string]bool{}
	for _, v := range crd.ServedVersions() {
		served[v] = true
	}
	for _, name := range crd.Versions() {
		r, err := crd.Resource(name)
		if err != nil {
			continue // a defined version: not reached
		}
		// The names, scope and preserveUnknownFields are the CRD's, the
		// same in every version's Resource.
		k.plural, k.singular, k.listKind = r.Plural, r.Singular, r.ListKind
		k.namespaced, k.preserveUnknownFields = r.Namespaced, r.PreserveUnknownFields
		v := &version{name: name, served: served[name], deprecation: crd.Deprecation(name), status: r.StatusSubresource, scale: r.Scale}
		for _, p := range r.SelectableFields {
			v.selectable = append(v.selectable, strings.TrimPrefix(p, "."))
		}
		k.versions[name] = v
	}
	return k
}

// object is the object m holds at key k, nil when it holds none.
func object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}
