package endcustomer

import (
	"slices"
	"strings"
)

// LegalFormKind groups legal forms by what they mean for a checkout: who
// is liable, and so whose identity matters.
type LegalFormKind string

// The kinds of legal form.
const (
	SoleProprietorship LegalFormKind = "sole_proprietorship"
	Partnership        LegalFormKind = "partnership"
	Corporation        LegalFormKind = "corporation"
	Cooperative        LegalFormKind = "cooperative"
	Association        LegalFormKind = "association"
	Foundation         LegalFormKind = "foundation"
	PublicBody         LegalFormKind = "public_body"
)

// LegalForm is a company's legal form (the end customer's `type`).
type LegalForm struct {
	// Code is what the API sends: the country's lower-case code and the
	// form (de_gmbh), or the form alone for the generic forms.
	Code string
	// Country is the ISO 3166-1 code of the forms of one country; empty
	// for the generic forms, which serve every country without a list.
	Country string
	// Name is the form's usual name in its country.
	Name string
	Kind LegalFormKind
	// Registered forms are entered in a trade register, so the company has
	// a registration number.
	Registered bool
}

func form(country, code, name string, kind LegalFormKind, registered bool) LegalForm {
	if country != "" {
		code = strings.ToLower(country) + "_" + code
	}
	return LegalForm{Code: code, Country: country, Name: name, Kind: kind, Registered: registered}
}

// LegalForms are the legal forms of the countries Tenure knows, then the
// generic forms. A country's list is what a trade register there knows;
// public bodies and unregistered forms have no registration number.
var LegalForms = []LegalForm{
	form("DE", "gmbh", "GmbH", Corporation, true),
	form("DE", "ug", "UG (haftungsbeschränkt)", Corporation, true),
	form("DE", "ag", "AG", Corporation, true),
	form("DE", "kgaa", "KGaA", Corporation, true),
	form("DE", "gmbh_co_kg", "GmbH & Co. KG", Partnership, true),
	form("DE", "kg", "KG", Partnership, true),
	form("DE", "ohg", "OHG", Partnership, true),
	form("DE", "partg", "PartG", Partnership, true),
	form("DE", "gbr", "GbR", Partnership, false),
	form("DE", "ek", "e.K.", SoleProprietorship, true),
	form("DE", "sole_proprietor", "Einzelunternehmen", SoleProprietorship, false),
	form("DE", "freelancer", "Freiberufler", SoleProprietorship, false),
	form("DE", "eg", "eG", Cooperative, true),
	form("DE", "ev", "e.V.", Association, true),
	form("DE", "stiftung", "Stiftung", Foundation, false),
	form("DE", "public_body", "Körperschaft des öffentlichen Rechts", PublicBody, false),

	form("AT", "gmbh", "GmbH", Corporation, true),
	form("AT", "ag", "AG", Corporation, true),
	form("AT", "gmbh_co_kg", "GmbH & Co KG", Partnership, true),
	form("AT", "og", "OG", Partnership, true),
	form("AT", "kg", "KG", Partnership, true),
	form("AT", "gesbr", "GesbR", Partnership, false),
	form("AT", "eu", "e.U.", SoleProprietorship, true),
	form("AT", "sole_proprietor", "Einzelunternehmen", SoleProprietorship, false),
	form("AT", "genossenschaft", "Genossenschaft", Cooperative, true),
	form("AT", "verein", "Verein", Association, true),
	form("AT", "public_body", "Körperschaft öffentlichen Rechts", PublicBody, false),

	form("CH", "ag", "AG / SA", Corporation, true),
	form("CH", "gmbh", "GmbH / Sàrl", Corporation, true),
	form("CH", "kollektivgesellschaft", "Kollektivgesellschaft", Partnership, true),
	form("CH", "kommanditgesellschaft", "Kommanditgesellschaft", Partnership, true),
	form("CH", "einfache_gesellschaft", "Einfache Gesellschaft", Partnership, false),
	form("CH", "sole_proprietor", "Einzelunternehmen", SoleProprietorship, false),
	form("CH", "genossenschaft", "Genossenschaft", Cooperative, true),
	form("CH", "verein", "Verein", Association, false),
	form("CH", "stiftung", "Stiftung", Foundation, true),
	form("CH", "public_body", "Öffentlich-rechtliche Körperschaft", PublicBody, false),

	form("NL", "bv", "B.V.", Corporation, true),
	form("NL", "nv", "N.V.", Corporation, true),
	form("NL", "vof", "V.O.F.", Partnership, true),
	form("NL", "cv", "C.V.", Partnership, true),
	form("NL", "maatschap", "Maatschap", Partnership, true),
	form("NL", "eenmanszaak", "Eenmanszaak", SoleProprietorship, true),
	form("NL", "cooperatie", "Coöperatie", Cooperative, true),
	form("NL", "vereniging", "Vereniging", Association, true),
	form("NL", "stichting", "Stichting", Foundation, true),
	form("NL", "public_body", "Publiekrechtelijke rechtspersoon", PublicBody, false),

	form("BE", "bv", "BV / SRL", Corporation, true),
	form("BE", "nv", "NV / SA", Corporation, true),
	form("BE", "vof", "VOF / SNC", Partnership, true),
	form("BE", "commv", "CommV / SComm", Partnership, true),
	form("BE", "maatschap", "Maatschap / Société simple", Partnership, true),
	form("BE", "sole_proprietor", "Eenmanszaak / Entreprise individuelle", SoleProprietorship, true),
	form("BE", "cv", "CV / SC", Cooperative, true),
	form("BE", "vzw", "VZW / ASBL", Association, true),
	form("BE", "public_body", "Publiekrechtelijke rechtspersoon / Personne morale de droit public", PublicBody, false),

	form("FR", "sarl", "SARL", Corporation, true),
	form("FR", "eurl", "EURL", Corporation, true),
	form("FR", "sas", "SAS", Corporation, true),
	form("FR", "sasu", "SASU", Corporation, true),
	form("FR", "sa", "SA", Corporation, true),
	form("FR", "snc", "SNC", Partnership, true),
	form("FR", "ei", "Entreprise individuelle", SoleProprietorship, true),
	form("FR", "scop", "SCOP", Cooperative, true),
	form("FR", "association", "Association loi 1901", Association, false),
	form("FR", "public_body", "Personne morale de droit public", PublicBody, false),

	form("IT", "srl", "S.r.l.", Corporation, true),
	form("IT", "srls", "S.r.l.s.", Corporation, true),
	form("IT", "spa", "S.p.A.", Corporation, true),
	form("IT", "sapa", "S.a.p.a.", Corporation, true),
	form("IT", "snc", "S.n.c.", Partnership, true),
	form("IT", "sas", "S.a.s.", Partnership, true),
	form("IT", "ditta_individuale", "Ditta individuale", SoleProprietorship, true),
	form("IT", "libero_professionista", "Libero professionista", SoleProprietorship, false),
	form("IT", "cooperativa", "Società cooperativa", Cooperative, true),
	form("IT", "associazione", "Associazione", Association, false),
	form("IT", "public_body", "Ente pubblico", PublicBody, false),

	form("ES", "sl", "S.L.", Corporation, true),
	form("ES", "sa", "S.A.", Corporation, true),
	form("ES", "sc", "Sociedad colectiva", Partnership, true),
	form("ES", "scom", "Sociedad comanditaria", Partnership, true),
	form("ES", "cb", "Comunidad de bienes", Partnership, false),
	form("ES", "autonomo", "Autónomo", SoleProprietorship, false),
	form("ES", "scoop", "Sociedad cooperativa", Cooperative, true),
	form("ES", "asociacion", "Asociación", Association, false),
	form("ES", "public_body", "Entidad de derecho público", PublicBody, false),

	form("LU", "sarl", "S.à r.l.", Corporation, true),
	form("LU", "sarls", "S.à r.l.-S", Corporation, true),
	form("LU", "sa", "SA", Corporation, true),
	form("LU", "sas", "SAS", Corporation, true),
	form("LU", "senc", "SENC", Partnership, true),
	form("LU", "secs", "SECS", Partnership, true),
	form("LU", "sole_proprietor", "Entreprise individuelle", SoleProprietorship, true),
	form("LU", "sc", "Société coopérative", Cooperative, true),
	form("LU", "asbl", "ASBL", Association, true),
	form("LU", "public_body", "Établissement public", PublicBody, false),

	form("", "sole_proprietor", "Sole proprietorship", SoleProprietorship, false),
	form("", "partnership", "Partnership", Partnership, false),
	form("", "limited_company", "Limited company", Corporation, true),
	form("", "public_limited_company", "Public limited company", Corporation, true),
	form("", "cooperative", "Cooperative", Cooperative, true),
	form("", "association", "Association", Association, false),
	form("", "foundation", "Foundation", Foundation, false),
	form("", "public_body", "Public body", PublicBody, false),
}

// LegalFormByCode finds a legal form by its code.
func LegalFormByCode(code string) (LegalForm, bool) {
	i := slices.IndexFunc(LegalForms, func(f LegalForm) bool { return f.Code == code })
	if i < 0 {
		return LegalForm{}, false
	}
	return LegalForms[i], true
}

// LegalFormsOf lists the legal forms a company of a country may have: the
// country's own, or the generic ones for a country without a list.
func LegalFormsOf(country string) []LegalForm {
	if forms := formsOf(country); len(forms) > 0 {
		return forms
	}
	return formsOf("")
}

func formsOf(country string) []LegalForm {
	var out []LegalForm
	for _, f := range LegalForms {
		if f.Country == country {
			out = append(out, f)
		}
	}
	return out
}

// LegalFormCodes are the codes of forms of one kind, in table order.
func LegalFormCodes(kind LegalFormKind) []string {
	var out []string
	for _, f := range LegalForms {
		if f.Kind == kind {
			out = append(out, f.Code)
		}
	}
	return out
}
