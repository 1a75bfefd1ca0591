package model

import (
	"strings"

	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/semantic"
)

// CRD is a CustomResourceDefinition in the apiserver's internal form: the
// form the apiserver validates. A v1 CRD whose versions all carry identical
// schemas (every single-version CRD) has that schema at the top-level
// Spec.Validation, and so on for subresources, printer columns and selectable
// fields; that is why the apiserver's error paths read
// spec.validation.openAPIV3Schema… for such CRDs. A v1beta1 CRD keeps the
// placement it was written with.
//
// The scheme defaults of the document's API version have been applied.
type CRD struct {
	// APIVersion is the document's apiVersion (apiextensions.k8s.io/v1 or
	// apiextensions.k8s.io/v1beta1).
	APIVersion string
	Metadata   ObjectMeta
	Spec       CRDSpec
	Status     CRDStatus
}

// ObjectMeta is the part of a CRD's metadata that CRD validation looks at.
type ObjectMeta struct {
	Name         string            `json:"name,omitempty"`
	GenerateName string            `json:"generateName,omitempty"`
	Namespace    string            `json:"namespace,omitempty"`
	UID          string            `json:"uid,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	Finalizers   []string          `json:"finalizers,omitempty"`
}

// CRDSpec is the internal form of a CRD's spec.
type CRDSpec struct {
	Group                    string
	Version                  string
	Names                    Names
	Scope                    string
	Validation               *Validation
	Subresources             *Subresources
	Versions                 []Version
	AdditionalPrinterColumns []Column
	SelectableFields         []SelectableField
	Conversion               *Conversion
	PreserveUnknownFields    *bool
}

// Names are a CRD's resource and kind names.
type Names struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// Validation holds a version's (or the shared) OpenAPI v3 schema.
type Validation struct {
	OpenAPIV3Schema *Props `json:"openAPIV3Schema,omitempty"`
}

// Subresources are the status and scale subresources.
type Subresources struct {
	Status *struct{} `json:"status,omitempty"`
	Scale  *Scale    `json:"scale,omitempty"`
}

// Scale is the scale subresource.
type Scale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

// Version is one entry of spec.versions.
type Version struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *Validation
	Subresources             *Subresources
	AdditionalPrinterColumns []Column
	SelectableFields         []SelectableField
}

// Column is an additional printer column.
type Column struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

// SelectableField is one entry of selectableFields.
type SelectableField struct {
	JSONPath string `json:"jsonPath"`
}

// Conversion is the internal form of spec.conversion.
type Conversion struct {
	Strategy                 string
	WebhookClientConfig      *WebhookClientConfig
	ConversionReviewVersions []string
}

// WebhookClientConfig says how to reach a conversion webhook.
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle []byte            `json:"caBundle,omitempty"`
}

// ServiceReference names the webhook's service; Port defaults to 443.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"`
}

// CRDStatus is the part of a CRD's status that validation looks at.
type CRDStatus struct {
	StoredVersions []string `json:"storedVersions"`
}

// The v1 wire form.
type v1CRD struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata,omitempty"`
	Spec       struct {
		Group                 string        `json:"group"`
		Names                 Names         `json:"names"`
		Scope                 string        `json:"scope"`
		Versions              []v1Version   `json:"versions"`
		Conversion            *v1Conversion `json:"conversion,omitempty"`
		PreserveUnknownFields bool          `json:"preserveUnknownFields,omitempty"`
	} `json:"spec"`
	Status CRDStatus `json:"status,omitempty"`
}

type v1Conversion struct {
	Strategy string     `json:"strategy"`
	Webhook  *v1Webhook `json:"webhook,omitempty"`
}

type v1Webhook struct {
	ClientConfig             *WebhookClientConfig `json:"clientConfig,omitempty"`
	ConversionReviewVersions []string             `json:"conversionReviewVersions"`
}

type v1Version struct {
	Name                     string            `json:"name"`
	Served                   bool              `json:"served"`
	Storage                  bool              `json:"storage"`
	Deprecated               bool              `json:"deprecated,omitempty"`
	DeprecationWarning       *string           `json:"deprecationWarning,omitempty"`
	Schema                   *Validation       `json:"schema,omitempty"`
	Subresources             *Subresources     `json:"subresources,omitempty"`
	AdditionalPrinterColumns []v1Column        `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField `json:"selectableFields,omitempty"`
}

type v1Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"jsonPath"`
}

// The v1beta1 wire form.
type v1beta1CRD struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata,omitempty"`
	Spec       struct {
		Group                    string             `json:"group"`
		Version                  string             `json:"version,omitempty"`
		Names                    Names              `json:"names"`
		Scope                    string             `json:"scope"`
		Validation               *Validation        `json:"validation,omitempty"`
		Subresources             *Subresources      `json:"subresources,omitempty"`
		Versions                 []v1beta1Version   `json:"versions,omitempty"`
		AdditionalPrinterColumns []v1beta1Column    `json:"additionalPrinterColumns,omitempty"`
		SelectableFields         []SelectableField  `json:"selectableFields,omitempty"`
		Conversion               *v1beta1Conversion `json:"conversion,omitempty"`
		PreserveUnknownFields    *bool              `json:"preserveUnknownFields,omitempty"`
	} `json:"spec"`
	Status CRDStatus `json:"status,omitempty"`
}

type v1beta1Conversion struct {
	Strategy                 string               `json:"strategy"`
	WebhookClientConfig      *WebhookClientConfig `json:"webhookClientConfig,omitempty"`
	ConversionReviewVersions []string             `json:"conversionReviewVersions,omitempty"`
}

type v1beta1Version struct {
	Name                     string            `json:"name"`
	Served                   bool              `json:"served"`
	Storage                  bool              `json:"storage"`
	Deprecated               bool              `json:"deprecated,omitempty"`
	DeprecationWarning       *string           `json:"deprecationWarning,omitempty"`
	Schema                   *Validation       `json:"schema,omitempty"`
	Subresources             *Subresources     `json:"subresources,omitempty"`
	AdditionalPrinterColumns []v1beta1Column   `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField `json:"selectableFields,omitempty"`
}

type v1beta1Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"JSONPath"`
}

// Group and versions of CRD documents.
const (
	groupName         = "apiextensions.k8s.io"
	v1APIVersion      = groupName + "/v1"
	v1beta1APIVersion = groupName + "/v1beta1"
)

// IsCRD reports whether a decoded document is a CustomResourceDefinition of
// a version this package reads.
func IsCRD(doc map[string]any) bool {
	if doc["kind"] != "CustomResourceDefinition" {
		return false
	}
	av, _ := doc["apiVersion"].(string)
	return av == v1APIVersion || av == v1beta1APIVersion
}

// DecodeCRD decodes one CRD document (JSON) of apiextensions.k8s.io/v1 or
// v1beta1, applies that version's scheme defaults and converts it to the
// internal form the apiserver validates.
func DecodeCRD(data []byte) (*CRD, error) {
	if crd, ok := fastDecodeCRD(data); ok {
		return crd, nil
	}
	return decodeCRDExact(data)
}

// DecodeCRDDocument is DecodeCRD(d.JSON()) for a document as ReadDocuments
// returned it, with identical results and errors. Where the
// document's Value is known to be exactly what decoding its JSON gives, the
// CRD is converted from Value rather than by decoding JSON again; in every
// other case (a document built elsewhere, read by the exact decoders, or an
// item of a List) it decodes d.JSON(). d.Value must not have been changed
// since it was read. The CRD shares no map or slice with d.Value.
func DecodeCRDDocument(d Document) (*CRD, error) {
	if d.Plain() {
		if doc, ok := d.Value.(map[string]any); ok {
			if crd, ok := crdFromValue(doc, true); ok {
				return crd, nil
			}
			// The conversion declines exactly where it would have on the
			// decoded JSON, which leaves the exact decoder.
			return decodeCRDExact(d.JSON())
		}
	}
	return DecodeCRD(d.JSON())
}

// decodeCRDExact is DecodeCRD with apimachinery's JSON decoder.
func decodeCRDExact(data []byte) (*CRD, error) {
	var tm struct {
		APIVersion string `json:"apiVersion"`
	}
	if err := kjson.Unmarshal(data, &tm); err != nil {
		return nil, err
	}
	switch tm.APIVersion {
	case v1APIVersion:
		var in v1CRD
		if err := kjson.Unmarshal(data, &in); err != nil {
			return nil, jsonvalue.DecodeError(err, v1APIVersion)
		}
		for i := range in.Spec.Versions {
			fillNullValidation(in.Spec.Versions[i].Schema)
		}
		return fromV1(&in), nil
	case v1beta1APIVersion:
		var in v1beta1CRD
		if err := kjson.Unmarshal(data, &in); err != nil {
			return nil, jsonvalue.DecodeError(err, v1beta1APIVersion)
		}
		fillNullValidation(in.Spec.Validation)
		for i := range in.Spec.Versions {
			fillNullValidation(in.Spec.Versions[i].Schema)
		}
		return fromV1beta1(&in), nil
	}
	return nil, &unsupportedVersionError{APIVersion: tm.APIVersion}
}

// unsupportedVersionError is the error of a CRD of an unknown apiVersion.
type unsupportedVersionError struct{ APIVersion string }

func (e *unsupportedVersionError) Error() string {
	return "unsupported CustomResourceDefinition apiVersion " + `"` + e.APIVersion + `"`
}

func defaultNames(n *Names) {
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
}

func defaultPort(c *WebhookClientConfig) {
	if c != nil && c.Service != nil && c.Service.Port == nil {
		p := int32(443)
		c.Service.Port = &p
	}
}

func storedVersionDefault(st *CRDStatus, versions []Version) {
	if len(st.StoredVersions) > 0 {
		return
	}
	for _, v := range versions {
		if v.Storage {
			st.StoredVersions = append(st.StoredVersions, v.Name)
			return
		}
	}
}

func fromV1(in *v1CRD) *CRD {
	out := &CRD{APIVersion: in.APIVersion, Metadata: in.Metadata, Status: in.Status}
	s := &out.Spec
	s.Group = in.Spec.Group
	s.Names = in.Spec.Names
	defaultNames(&s.Names)
	s.Scope = in.Spec.Scope
	pf := in.Spec.PreserveUnknownFields
	s.PreserveUnknownFields = &pf
	if in.Spec.Conversion == nil {
		s.Conversion = &Conversion{Strategy: "None"}
	} else {
		c := &Conversion{Strategy: in.Spec.Conversion.Strategy}
		if w := in.Spec.Conversion.Webhook; w != nil {
			c.ConversionReviewVersions = w.ConversionReviewVersions
			c.WebhookClientConfig = w.ClientConfig
			defaultPort(c.WebhookClientConfig)
		}
		s.Conversion = c
	}
	if in.Spec.Versions != nil {
		s.Versions = make([]Version, len(in.Spec.Versions))
	}
	for i, v := range in.Spec.Versions {
		s.Versions[i] = Version{
			Name: v.Name, Served: v.Served, Storage: v.Storage,
			Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning,
			Schema: v.Schema, Subresources: v.Subresources,
			SelectableFields: v.SelectableFields,
		}
		if v.AdditionalPrinterColumns != nil {
			cols := make([]Column, len(v.AdditionalPrinterColumns))
			for j, c := range v.AdditionalPrinterColumns {
				cols[j] = Column(c)
			}
			s.Versions[i].AdditionalPrinterColumns = cols
		}
	}
	storedVersionDefault(&out.Status, s.Versions)
	hoistIdentical(s)
	return out
}

// hoistIdentical moves per-version fields that are identical in every
// version to the top level, as the v1 → internal conversion does.
func hoistIdentical(s *CRDSpec) {
	if len(s.Versions) == 0 {
		return
	}
	s.Version = s.Versions[0].Name
	first := s.Versions[0]
	same := [4]bool{true, true, true, true}
	for _, v := range s.Versions[1:] {
		same[0] = same[0] && semantic.Equal(v.Subresources, first.Subresources)
		same[1] = same[1] && SchemasEqual(v.Schema, first.Schema)
		same[2] = same[2] && semantic.Equal(v.AdditionalPrinterColumns, first.AdditionalPrinterColumns)
		same[3] = same[3] && semantic.Equal(v.SelectableFields, first.SelectableFields)
	}
	if same[0] {
		s.Subresources = first.Subresources
	}
	if same[1] {
		s.Validation = first.Schema
	}
	if same[2] {
		s.AdditionalPrinterColumns = first.AdditionalPrinterColumns
	}
	if same[3] {
		s.SelectableFields = first.SelectableFields
	}
	for i := range s.Versions {
		v := &s.Versions[i]
		if same[0] {
			v.Subresources = nil
		}
		if same[1] {
			v.Schema = nil
		}
		if same[2] {
			v.AdditionalPrinterColumns = nil
		}
		if same[3] {
			v.SelectableFields = nil
		}
	}
}

func fromV1beta1(in *v1beta1CRD) *CRD {
	out := &CRD{APIVersion: in.APIVersion, Metadata: in.Metadata, Status: in.Status}
	s := &out.Spec
	src := &in.Spec
	s.Group = src.Group
	s.Version = src.Version
	s.Names = src.Names
	defaultNames(&s.Names)
	s.Scope = src.Scope
	if s.Scope == "" {
		s.Scope = "Namespaced"
	}
	s.Validation = src.Validation
	s.Subresources = src.Subresources
	s.AdditionalPrinterColumns = v1beta1Columns(src.AdditionalPrinterColumns)
	s.SelectableFields = src.SelectableFields
	if src.Versions != nil {
		s.Versions = make([]Version, len(src.Versions))
	}
	for i, v := range src.Versions {
		s.Versions[i] = Version{
			Name: v.Name, Served: v.Served, Storage: v.Storage,
			Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning,
			Schema: v.Schema, Subresources: v.Subresources,
			AdditionalPrinterColumns: v1beta1Columns(v.AdditionalPrinterColumns),
			SelectableFields:         v.SelectableFields,
		}
	}
	if len(s.Versions) == 0 && s.Version != "" {
		s.Versions = []Version{{Name: s.Version, Served: true, Storage: true}}
	}
	if s.Version == "" && len(s.Versions) != 0 {
		s.Version = s.Versions[0].Name
	}
	if src.Conversion == nil {
		s.Conversion = &Conversion{Strategy: "None"}
	} else {
		s.Conversion = &Conversion{
			Strategy:                 src.Conversion.Strategy,
			WebhookClientConfig:      src.Conversion.WebhookClientConfig,
			ConversionReviewVersions: src.Conversion.ConversionReviewVersions,
		}
		defaultPort(s.Conversion.WebhookClientConfig)
	}
	if s.Conversion.Strategy == "Webhook" && len(s.Conversion.ConversionReviewVersions) == 0 {
		s.Conversion.ConversionReviewVersions = []string{"v1beta1"}
	}
	s.PreserveUnknownFields = src.PreserveUnknownFields
	if s.PreserveUnknownFields == nil {
		t := true
		s.PreserveUnknownFields = &t
	}
	storedVersionDefault(&out.Status, s.Versions)
	return out
}

func v1beta1Columns(in []v1beta1Column) []Column {
	if in == nil {
		return nil
	}
	out := make([]Column, len(in))
	for i, c := range in {
		out[i] = Column(c)
	}
	return out
}

// SchemaFor returns the schema that applies to the named version: the
// version's own, or the shared top-level one. It returns nil when there is
// none.
func (c *CRD) SchemaFor(version string) *Props {
	for _, v := range c.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			return v.Schema.OpenAPIV3Schema
		}
	}
	if c.Spec.Validation != nil {
		return c.Spec.Validation.OpenAPIV3Schema
	}
	return nil
}

// SubresourcesFor returns the subresources that apply to the named version.
func (c *CRD) SubresourcesFor(version string) *Subresources {
	for _, v := range c.Spec.Versions {
		if v.Name == version && v.Subresources != nil {
			return v.Subresources
		}
	}
	return c.Spec.Subresources
}
