package crdfake

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
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
// takes from the CRD besides its schemas. Its names are known from the
// start; the rest is filled in on the first request of the kind
// (accepted), when the CRD is decoded (if it was read ahead) and checked.
type kind struct {
	names
	// file and line are where the CRD was read, for its errors (at).
	file string
	line int
	// crd is the CRD: decoded when read, or, when its names were read
	// ahead, decoded by accepted from text, the document numbered index
	// at line of file.
	crd   *crdschema.CRD
	text  []byte
	index int

	// storage and the fields below are the CRD's, set by accepted.
	storage string
	// preserveUnknownFields is the CRD's spec.preserveUnknownFields (a
	// v1beta1 CRD's defaults to true); webhook tells conversion strategy
	// Webhook.
	preserveUnknownFields bool
	webhook               bool
	// versions are the defined versions by name.
	versions map[string]*version
	// managed builds the field managers on first use (managed.go).
	managed fieldManagers
	// loaded decodes and checks the CRD on the first request of the
	// kind; rejected is why its requests fail, nil when the apiserver
	// would accept the CRD.
	loaded   sync.Once
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
//
// Of an input in the block-style YAML that generators write (a
// controller-gen or kubectl output: any input but JSON, v1beta1 CRDs,
// Lists and less usual YAML), only the CRDs' names are read, and each CRD
// is decoded on the first request of its kind, so that a test pays for
// the kinds it uses: the input's other documents are not decoded, and a
// CRD whose text cannot be decoded fails every request of its kind with
// the error reading the input would have given.
func Parse(docs ...[]byte) (*CRDs, error) {
	c := &CRDs{kinds: map[kschema.GroupKind]*kind{}}
	for i, data := range docs {
		// A copy: the CRDs read ahead are decoded later from it.
		if err := c.add(fmt.Sprintf("document %d", i), bytes.Clone(data)); err != nil {
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

// add reads the CRDs of one input: their names only when the file can
// be read ahead (ahead.go), else every CRD decoded.
func (c *CRDs) add(name string, data []byte) error {
	if found, ok := readAhead(data); ok {
		for i := range found {
			f := &found[i]
			c.register(&kind{names: f.names, file: name, line: f.line, text: f.text, index: f.index})
		}
		return nil
	}
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
		c.register(&kind{names: namesOf(crd), file: docs[i].File, line: docs[i].Line, crd: crd})
	}
	return nil
}

// register adds a kind, unless the set has its group and kind already:
// the apiserver serves the first CRD of a group and kind.
func (c *CRDs) register(k *kind) {
	if _, dup := c.kinds[k.gk]; dup {
		return
	}
	c.kinds[k.gk] = k
	c.order = append(c.order, k)
}

// done fails for a set without CRDs, which is most likely a wrong path.
func (c *CRDs) done() error {
	if len(c.kinds) == 0 {
		return errors.New("no CustomResourceDefinition found")
	}
	return nil
}

// at is where the kind's CRD was read (file:line), for its errors: built
// only when one is reported, not for every CRD of a set.
func (k *kind) at() string { return fmt.Sprintf("%s:%d", k.file, k.line) }

// accepted decodes the kind's CRD if it was read ahead and checks it as
// the apiserver does when it is created (once, on the first request of
// the kind): the error names a CRD that cannot be decoded, or that the
// apiserver would reject, and its first errors.
func (k *kind) accepted() error {
	k.loaded.Do(func() { k.rejected = k.load() })
	return k.rejected
}

// load is accepted's work: the CRD decoded (when read ahead) and its
// names compared with those read ahead, what the fake needs of it
// filled in, the CRD checked.
func (k *kind) load() error {
	if k.crd == nil {
		crd, err := k.decode()
		if err != nil {
			return err
		}
		if n := namesOf(crd); !n.equal(&k.names) {
			// The REST mapper has answered with what was read ahead.
			return fmt.Errorf("%s: crdfake read the names of CustomResourceDefinition %q ahead as %+v, but they are %+v: please report this", k.at(), crd.Name(), k.names, n)
		}
		k.crd, k.text = crd, nil
	}
	k.fill()
	if errs := k.crd.Errors(); len(errs) > 0 {
		return fmt.Errorf("%s: %w", k.at(), &crdschema.RejectedError{CRD: k.crd.Name(), Errors: errs})
	}
	return nil
}

// decode decodes the CRD read ahead, as reading its whole file would:
// the same document, position and errors.
func (k *kind) decode() (*crdschema.CRD, error) {
	docs, err := crdschema.ReadDocuments(k.file, k.text)
	if err != nil {
		// Lines counted from the document's first line and the document
		// numbered 0: the file's line and the document's number.
		var errs schema.InputErrors
		if errors.As(err, &errs) {
			for _, e := range errs {
				if e.Line > 0 {
					e.Line += k.line - 1
				}
				if inner := errors.Unwrap(e.Err); inner != nil {
					e.Err = fmt.Errorf("document %d: %w", k.index, inner)
				}
			}
		}
		return nil, err
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("%s: crdfake read one CustomResourceDefinition ahead, but the document holds %d documents: please report this", k.at(), len(docs))
	}
	docs[0].Index, docs[0].Line = k.index, k.line
	return docs[0].CRD()
}

// namesOf are the names of a decoded CRD.
func namesOf(crd *crdschema.CRD) names {
	n := names{gk: crd.GroupKind(), served: crd.ServedVersions()}
	for _, v := range crd.Versions() {
		if r, err := crd.Resource(v); err == nil {
			// The same in every version's Resource.
			n.plural, n.singular, n.listKind, n.namespaced = r.Plural, r.Singular, r.ListKind, r.Namespaced
			break
		}
	}
	return n
}

// fill reads what the fake needs of the kind's CRD besides its names:
// the storage version, the versions' subresources, selectable fields and
// deprecation warnings.
func (k *kind) fill() {
	crd := k.crd
	k.storage = crd.StorageVersion()
	k.webhook = crd.ConversionStrategy() == "Webhook"
	k.versions = map[string]*version{}
	for _, name := range crd.Versions() {
		r, err := crd.Resource(name)
		if err != nil {
			continue // a defined version: not reached
		}
		k.preserveUnknownFields = r.PreserveUnknownFields // the CRD's, in every version
		v := &version{name: name, served: slices.Contains(k.served, name), deprecation: crd.Deprecation(name), status: r.StatusSubresource, scale: r.Scale}
		for _, p := range r.SelectableFields {
			v.selectable = append(v.selectable, strings.TrimPrefix(p, "."))
		}
		k.versions[name] = v
	}
}

// object is the object m holds at key k, nil when it holds none.
func object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}
