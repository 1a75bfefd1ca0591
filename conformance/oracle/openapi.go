package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/kube-openapi/pkg/handler"
	"sigs.k8s.io/yaml"
)

// openapiLine is one line of `openapi -o json`.
type openapiLine struct {
	File     string         `json:"file"`
	Document int            `json:"document"`
	Name     string         `json:"name"`
	Group    string         `json:"group"`
	Version  string         `json:"version"`
	Kind     string         `json:"kind"`
	ListKind string         `json:"listKind"`
	V3       map[string]any `json:"v3"`
	V2       map[string]any `json:"v2"`
	Errors   []jsonError    `json:"errors"`
}

// openapi answers `openapi`: for every served version of every accepted
// CRD, the definitions of the kind and its List kind that the apiserver's
// OpenAPI controllers publish, built with builder.BuildOpenAPIV3 and
// BuildOpenAPIV2 and the controllers' options (CustomResourceFieldSelectors
// on, as by default), v2 with handler.PruneDefaults as the v2 controller
// does before merging.
func (r *runner) openapi(ctx context.Context) int {
	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.paths, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	status := ExitOK
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	first := true
	for _, d := range docs {
		if !IsCRD(d.Object) {
			continue
		}
		c, crashed, err := r.safeCheckDoc(ctx, d, false)
		if crashed {
			continue
		}
		if err != nil {
			r.inputError(err)
			status = ExitInput
			continue
		}
		lines, err := openapiLines(c)
		if err != nil {
			r.crash(d, err)
			continue
		}
		for _, l := range lines {
			if len(l.Errors) > 0 && status == ExitOK {
				status = ExitErrors
			}
			if err := r.writeLine(l, &first); err != nil {
				r.inputError(err)
				return ExitInput
			}
		}
	}
	return status
}

// writeLine writes a line as JSON or as one document of a YAML stream.
func (r *runner) writeLine(l any, first *bool) error {
	if r.opts.output == "json" {
		return writeJSONLine(r.env.Stdout, l)
	}
	b, err := yaml.Marshal(l)
	if err != nil {
		return err
	}
	if !*first {
		fmt.Fprintln(r.env.Stdout, "---")
	}
	*first = false
	_, err = r.env.Stdout.Write(b)
	return err
}

func openapiLines(c *checkedCRD) ([]openapiLine, error) {
	base := openapiLine{File: c.Doc.File, Document: c.Doc.Index, Name: c.Name, Errors: []jsonError{}}
	if c.Internal != nil {
		base.Group, base.Kind, base.ListKind = c.Internal.Spec.Group, c.Internal.Spec.Names.Kind, c.Internal.Spec.Names.ListKind
	}
	if !c.Accepted() {
		base.Errors = jsonErrors(c.Errors)
		return []openapiLine{base}, nil
	}
	var out []openapiLine
	for _, v := range c.V1.Spec.Versions {
		if !v.Served {
			continue
		}
		l := base
		l.Version = v.Name
		var err error
		if l.V3, l.V2, err = publish(c.V1, v.Name); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// publish builds the v3 and v2 definitions of a version's kind and List.
func publish(crd *apiextensionsv1.CustomResourceDefinition, version string) (v3, v2 map[string]any, err error) {
	names := []string{modelName(crd.Spec.Group, version, crd.Spec.Names.Kind), modelName(crd.Spec.Group, version, crd.Spec.Names.ListKind)}
	s3, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: true})
	if err != nil {
		return nil, nil, err
	}
	s2, err := builder.BuildOpenAPIV2(crd, version, builder.Options{V2: true, IncludeSelectableFields: true})
	if err != nil {
		return nil, nil, err
	}
	s2.Definitions = handler.PruneDefaults(s2.Definitions)
	v3, v2 = map[string]any{}, map[string]any{}
	for _, n := range names {
		if v3[n], err = asJSON(s3.Components.Schemas[n]); err != nil {
			return nil, nil, err
		}
		if v2[n], err = asJSON(s2.Definitions[n]); err != nil {
			return nil, nil, err
		}
	}
	return v3, v2, nil
}

func asJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

// modelName is the apiserver's gvkToModelName: the group reversed.
func modelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}
