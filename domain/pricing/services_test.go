package pricing

import (
	"reflect"
	"strings"
	"testing"
)

func TestServiceProblems(t *testing.T) {
	replace := func(tune func(*ServiceTerms)) map[string]map[string]ServiceTerms {
		s := ServiceTerms{MonthlyNet: 490, DeductibleNet: 4900, AccessoryType: "device"}
		tune(&s)
		return map[string]map[string]ServiceTerms{"hardware": {ServiceReplace: s}}
	}
	images := ServiceImages{URL1x: "https://cdn.example.com/r.png", URL2x: "https://cdn.example.com/r@2x.png", URL3x: "https://cdn.example.com/r@3x.png"}
	cases := []struct {
		name     string
		services map[string]map[string]ServiceTerms
		key      string
		want     string
	}{
		{"unknown category", map[string]map[string]ServiceTerms{"furniture": {ServiceReplace: {MonthlyNet: 1}}}, "services.furniture", "not a pricing category with rates (hardware, software)"},
		{"unknown type", map[string]map[string]ServiceTerms{"hardware": {"service_repair": {MonthlyNet: 1}}}, "services.hardware.service_repair", "use one of service_replace"},
		{"negative price", replace(func(s *ServiceTerms) { s.MonthlyNet = -1 }), "services.hardware.service_replace.monthly_net", "between 0 (not offered) and"},
		{"huge deductible", replace(func(s *ServiceTerms) { s.DeductibleNet = maxServiceAmount + 1 }), "services.hardware.service_replace.deductible_net", "between 0 and"},
		{"accessory type", replace(func(s *ServiceTerms) { s.AccessoryType = "Phone Case" }), "services.hardware.service_replace.accessory_type", "lower-case"},
		{"one image", replace(func(s *ServiceTerms) { s.Images.URL1x = images.URL1x }), "services.hardware.service_replace.images", "all three"},
		{"relative image", replace(func(s *ServiceTerms) { s.Images = images; s.Images.URL2x = "/r@2x.png" }), "services.hardware.service_replace.images.url2x", "absolute http(s) URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig()
			c.Services = tc.services
			ps := c.Problems()
			if len(ps) != 1 || ps[0].Key != tc.key || !strings.Contains(ps[0].Message, tc.want) {
				t.Errorf("want one problem %s ~ %q, got %+v", tc.key, tc.want, ps)
			}
		})
	}
	c := testConfig()
	c.Services = replace(func(s *ServiceTerms) { s.Images = images })
	if ps := c.Problems(); len(ps) != 0 {
		t.Errorf("a valid service: %+v", ps)
	}
}

func TestServicesOfACategory(t *testing.T) {
	c := testConfig()
	c.Services = map[string]map[string]ServiceTerms{
		"hardware": {ServiceReplace: {MonthlyNet: 490, DeductibleNet: 4900}},
		"software": {ServiceReplace: {MonthlyNet: 0}},
	}
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Services["hardware"][ServiceReplace] = ServiceTerms{MonthlyNet: 1}
	want := []OfferedService{{Type: ServiceReplace, ServiceTerms: ServiceTerms{MonthlyNet: 490, DeductibleNet: 4900}}}
	if got := e.Services("hardware"); !reflect.DeepEqual(got, want) {
		t.Errorf("hardware (the engine keeps its own copy): %+v", got)
	}
	if got := e.Services("software"); len(got) != 0 {
		t.Errorf("a price of 0 offers nothing: %+v", got)
	}
	if got := e.Services("other"); len(got) != 0 {
		t.Errorf("no fallback to the default category: %+v", got)
	}
}

func TestEveryServiceTypeHasItsSellerAPIName(t *testing.T) {
	for typ, sellerType := range ServiceTypes {
		if !strings.HasPrefix(sellerType, "topi_") || !strings.HasPrefix(typ, "service_") {
			t.Errorf("%s is %s in the Seller API", typ, sellerType)
		}
	}
}
