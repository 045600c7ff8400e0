package consolebench_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
)

// The data the pages are measured over.
const (
	// totalOffers are the offers in the database, one every offerEvery
	// seconds back from now; one in inReviewEvery of them waits in the
	// review queue.
	totalOffers   = 1_000_000
	offerEvery    = 30
	inReviewEvery = 20
	sellerCount   = 1_000
	auditEntries  = 200_000
	// bigShare: one offer in bigShare is the big seller's, whose user
	// the portal's pages are measured as.
	bigShare = 4
	// agents are the big seller's users who made its offers; the signed-in
	// user is the first.
	agents = 10
	// sellerUsers, catalogImports are the big seller's users and uploads.
	sellerUsers    = 300
	catalogImports = 3_000
)

// Who the portal's pages are measured as: an admin of the big seller who
// made one in agents of its offers.
const (
	bigSellerName = "Seller 00001"
	portalEmail   = "agent0@example.com"
)

// fill writes the benchmark's data with set-wise SQL on one connection
// (its temporary tables and function): sellers; offers (those in review
// copies of the template's document with their own company and VAT
// number and a risk decision, the big seller's copies with its companies,
// the others a minimal document, as no list page reads it); an order for
// every accepted offer (its one line); for one order in three a 12-month
// contract from the first of a month with its installments (paid, due
// and to come; one contract in eleven with a failed installment, its
// return, and its arrears and reminder events);
// a year of collection runs and files and of payouts and their files;
// webhook endpoints, the big seller's and the last offers' events, the
// last week's deliveries and attempts (some failed); the big seller's
// catalog uploads and users; audit entries; then VACUUM ANALYZE (the
// steady state autovacuum keeps: the GIN pending lists merged).
func fill(b *testing.B, store *db.Store, template uuid.UUID) {
	b.Helper()
	conn, err := store.Pool.Acquire(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	for _, sql := range fillStatements(template) {
		if _, err := conn.Exec(b.Context(), sql); err != nil {
			b.Fatalf("%v\n%s", err, sql)
		}
	}
}

// fillStatements are fill's statements in their order.
func fillStatements(template uuid.UUID) []string {
	return []string{
		// A time-ordered id (version 7) of a moment, as the records' own.
		`CREATE FUNCTION pg_temp.uuid7(at timestamptz) RETURNS uuid LANGUAGE sql AS $$
			SELECT encode(set_byte(overlay(uuid_send(gen_random_uuid())
			                               PLACING substring(int8send((extract(epoch FROM at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
			                       6, 112 + (random() * 15)::int), 'hex')::uuid $$`,
		fmt.Sprintf(`INSERT INTO sellers (id, name, currency, created_at)
			SELECT gen_random_uuid(), 'Seller ' || lpad(g::text, 5, '0'), 'EUR', now() - make_interval(days => g)
			FROM generate_series(1, %d) g`, sellerCount),
		`CREATE TEMP TABLE bench_sellers AS
			SELECT row_number() OVER (ORDER BY name) AS n, id FROM sellers WHERE name LIKE 'Seller %'`,
		// g's seller: the big seller's every bigShare-th, the others' in turn;
		// the offers in review are none of the big seller's.
		fmt.Sprintf(`INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, created_by, search_text,
			                    document, expires_at, created_at, updated_at)
			SELECT pg_temp.uuid7(x.at), s.id, 'bench-' || g, x.status,
			       CASE WHEN x.big THEN 'telesales' ELSE 'ecommerce' END,
			       CASE WHEN x.big THEN 'agent' || (g / %[5]d) %% %[6]d || '@example.com' ELSE '' END,
			       CASE WHEN x.documented THEN lower('bench-' || g || ' Company ' || x.company || ' GmbH') ELSE 'bench-' || g END,
			       CASE WHEN x.documented THEN jsonb_set(jsonb_set(t.document,
			                 '{customer,company,name}', to_jsonb('Company ' || x.company || ' GmbH')),
			                 '{customer,company,vat_number}', to_jsonb('DE' || lpad(x.company::text, 9, '0')))
			            ELSE '{}'::jsonb END,
			       x.at + interval '30 days', x.at, x.at
			FROM (SELECT g, now() - make_interval(secs => (%[1]d - g) * %[7]d) AS at,
			             g %% %[5]d = 1 AS big,
			             g %% %[2]d = 0 OR g %% %[5]d = 1 AS documented,
			             CASE WHEN g %% %[2]d = 0 THEN (g / %[2]d) %% 2500 ELSE 2500 + (g / %[5]d) %% 5000 END AS company,
			             CASE WHEN g %% %[2]d = 0 THEN 'pending_review'
			                  ELSE (ARRAY['created', 'accepted', 'declined', 'expired', 'voided'])[1 + g %% 5] END AS status
			      FROM generate_series(1, %[1]d) g) x
			JOIN bench_sellers s ON s.n = CASE WHEN x.big THEN 1 ELSE 2 + g %% (%[3]d - 1) END
			CROSS JOIN (SELECT document FROM offers WHERE id = '%[4]s') t`,
			totalOffers, inReviewEvery, sellerCount, template, bigShare, agents, offerEvery),
		`INSERT INTO risk_decisions (id, offer_id, seller_id, snapshot_version, snapshot, company_keys, currency, reserved_net,
			                            rule_set_version, outcome, rule_id, reason)
			SELECT gen_random_uuid(), o.id, o.seller_id, 1, '{}', ARRAY['vat:' || (o.document #>> '{customer,company,vat_number}')], 'EUR', 3000000,
			       'bench', 'manual', 'bench', '{"code": "bench", "en": "bench", "de": "bench", "nl": "bench"}'
			FROM offers o WHERE o.status = 'pending_review' AND o.seller_offer_reference ~ '^bench-[0-9]+$'`,
		`CREATE TEMP TABLE bench_offers AS
			SELECT o.id, o.seller_id, o.created_at, o.seller_offer_reference AS reference, substring(o.seller_offer_reference FROM 7)::int AS g,
			       o.created_by, o.search_text, coalesce(o.document #>> '{customer,company,name}', '') AS company
			FROM offers o WHERE o.status = 'accepted' AND o.seller_offer_reference ~ '^bench-[0-9]+$'`,
		`INSERT INTO orders (id, seller_id, offer_id, seller_offer_reference, status, created_by, search_text, agent_name,
			                    company_name, full_name, document, offer_created_at, created_at, updated_at)
			SELECT pg_temp.uuid7(o.created_at + interval '1 hour'), o.seller_id, o.id, o.reference,
			       (ARRAY['created', 'acknowledged', 'confirmed', 'partially_fulfilled', 'completed', 'canceled', 'rejected'])[1 + o.g % 7],
			       o.created_by, o.search_text || ' jane doe', '', o.company, 'Jane Doe',
			       '{"order_lines": [{"title": "Server", "subtitle": "", "quantity": 1, "seller_product_references": []}]}', o.created_at,
			       o.created_at + interval '1 hour', o.created_at + interval '1 hour'
			FROM bench_offers o`,
		`INSERT INTO rental_contracts (id, order_id, seller_id, line_position, quantity, start_date, duration_months, monthly_net,
			                              monthly_gross, currency, created_at, updated_at, offer_id, seller_offer_reference, status, tax_rate, purchase_net)
			SELECT pg_temp.uuid7(r.created_at + interval '1 day'), r.id, r.seller_id, 0, 1,
			       date_trunc('month', r.created_at + interval '14 days')::date, 12,
			       10000, 11900, 'EUR', r.created_at + interval '1 day', r.created_at + interval '1 day', o.id, o.reference, 'running', 1900, 500000
			FROM bench_offers o JOIN orders r ON r.offer_id = o.id
			WHERE o.g % 3 = 0`,
		`INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate,
			                                   status, status_changed_at)
			SELECT c.id, n, (c.start_date + make_interval(months => n - 1))::date, (c.start_date + make_interval(months => n))::date - 1,
			       (c.start_date + make_interval(months => n - 1))::date, 'EUR', 10000, 11900, 1900,
			       CASE WHEN n = 2 AND substring(c.seller_offer_reference FROM 7)::int % 11 = 0
			                 AND c.start_date + interval '1 month' < current_date THEN 'failed'
			            WHEN c.start_date + make_interval(months => n - 1) < current_date - 5 THEN 'paid'
			            WHEN c.start_date + make_interval(months => n - 1) < current_date THEN 'due'
			            ELSE 'scheduled' END,
			       LEAST(now(), c.start_date + make_interval(months => n - 1, days => 3))
			FROM rental_contracts c CROSS JOIN generate_series(1, 12) n`,
		`INSERT INTO collection_runs (id, run_date, collection_date, status, started_at, finished_at)
			SELECT gen_random_uuid(), current_date - d, current_date - d + 2, 'written', now() - make_interval(days => d), now() - make_interval(days => d)
			FROM generate_series(1, 365) d`,
		`INSERT INTO collection_files (id, run_id, contractual_entity, creditor_id, scheme, message_id, sequence_types, nb_of_txs,
			                              ctrl_sum, blob_key, size, sha256, created_at)
			SELECT gen_random_uuid(), r.id, e, 'DE98ZZZ09999999999', 'B2B', 'bench-' || r.run_date || '-' || e, ARRAY['RCUR'], 180,
			       2142000, 'bench/' || r.run_date || '/' || e, 90000, repeat('0', 64), r.started_at
			FROM collection_runs r CROSS JOIN unnest(ARRAY['tenure-de', 'tenure-nl', 'tenure-at']) e`,
		`INSERT INTO collection_items (id, run_id, file_id, contract_id, installment_number, mandate_id, contractual_entity, creditor_id,
			                              scheme, attempt, end_to_end_id, amount, sequence_type, status, reason, created_at)
			SELECT gen_random_uuid(), f.run_id, f.id, i.contract_id, i.number, gen_random_uuid(), 'tenure-de', 'DE98ZZZ09999999999',
			       'B2B', 1, 'bench-' || i.contract_id, i.gross, 'RCUR', 'returned', 'AM04', i.status_changed_at
			FROM contract_installments i
			JOIN collection_runs r ON r.run_date = LEAST(i.due_date, current_date - 1)
			JOIN collection_files f ON f.run_id = r.id AND f.contractual_entity = 'tenure-de'
			WHERE i.status = 'failed'`,
		`INSERT INTO payout_files (id, contractual_entity, run_date, message_id, transfers, total, content, created_at)
			SELECT gen_random_uuid(), 'tenure-de', current_date - d, 'bench-payout-' || d, 180, 88200000, '\x00', now() - make_interval(days => d)
			FROM generate_series(1, 365) d`,
		`INSERT INTO payouts (id, seller_id, order_id, contractual_entity, currency, financed, fee, amount, status, file_id,
			                     execution_date, created_at, sent_at)
			SELECT pg_temp.uuid7(c.created_at), c.seller_id, c.order_id, 'tenure-de', 'EUR', 500000, 10000, 490000,
			       CASE WHEN f.id IS NULL THEN 'owed' ELSE 'sent' END, f.id, f.run_date, c.created_at, f.created_at
			FROM rental_contracts c LEFT JOIN payout_files f ON f.run_date = c.created_at::date + 1`,
		`INSERT INTO webhook_endpoints (id, seller_id, url, secret, disabled_at, disabled_reason, created_at)
			SELECT gen_random_uuid(), s.id, 'https://hooks.example.com/' || s.n || '/' || k, '\x00',
			       CASE WHEN s.n % 20 = 0 THEN now() - interval '2 days' END, CASE WHEN s.n % 20 = 0 THEN 'bench' END, now() - interval '1 year'
			FROM bench_sellers s CROSS JOIN generate_series(1, CASE WHEN s.n = 1 THEN 3 ELSE 1 END) k`,
		`CREATE TEMP TABLE bench_endpoints AS
			SELECT DISTINCT ON (seller_id) seller_id, id FROM webhook_endpoints ORDER BY seller_id, created_at, url`,
		// The big seller's every offer and order, every seller's last
		// tenth of offers, and the contracts' arrears have events.
		fmt.Sprintf(`INSERT INTO events (id, seller_id, type, object_id, payload, created_at, dispatched_at)
			SELECT pg_temp.uuid7(o.created_at), o.seller_id, 'offer.created', o.id, '{}', o.created_at, o.created_at
			FROM offers o
			WHERE o.seller_offer_reference ~ '^bench-[0-9]+$'
			  AND (o.seller_id = (SELECT id FROM bench_sellers WHERE n = 1) OR substring(o.seller_offer_reference FROM 7)::int > %d)`,
			totalOffers*9/10),
		`INSERT INTO events (id, seller_id, type, object_id, payload, created_at, dispatched_at)
			SELECT pg_temp.uuid7(r.created_at), r.seller_id, 'order.created', r.id, '{}', r.created_at, r.created_at
			FROM orders r WHERE r.seller_id = (SELECT id FROM bench_sellers WHERE n = 1)`,
		`INSERT INTO events (id, seller_id, type, object_id, payload, created_at, dispatched_at)
			SELECT pg_temp.uuid7(i.status_changed_at + make_interval(days => k * 7)), c.seller_id,
			       CASE WHEN k = 0 THEN 'contract.in_arrears' ELSE 'contract.payment_reminder' END, c.id, '{}',
			       i.status_changed_at + make_interval(days => k * 7), i.status_changed_at + make_interval(days => k * 7)
			FROM contract_installments i JOIN rental_contracts c ON c.id = i.contract_id CROSS JOIN generate_series(0, 2) k
			WHERE i.status = 'failed'`,
		`INSERT INTO webhook_deliveries (event_id, endpoint_id, seller_id, status, attempts, last_attempt_at, delivered_at, created_at, updated_at)
			SELECT e.id, p.id, e.seller_id, 'delivered', 3, e.created_at + interval '10 seconds', e.created_at + interval '10 seconds',
			       e.created_at, e.created_at
			FROM events e JOIN bench_endpoints p ON p.seller_id = e.seller_id
			WHERE e.created_at > now() - interval '7 days'`,
		`INSERT INTO webhook_attempts (event_id, endpoint_id, run, attempt, started_at, finished_at, outcome, status_code, latency_ms,
			                              error_class, response_excerpt)
			SELECT d.event_id, d.endpoint_id, 1, a, d.created_at + make_interval(secs => a * 5 - 5), d.created_at + make_interval(secs => a * 5 - 4),
			       CASE WHEN a = 3 THEN 'delivered' ELSE 'failed' END, CASE WHEN a = 3 THEN 200 ELSE 503 END, 120,
			       CASE WHEN a = 3 THEN NULL ELSE 'http_status' END, CASE WHEN a = 3 THEN NULL ELSE 'Service Unavailable' END
			FROM webhook_deliveries d CROSS JOIN generate_series(1, 3) a`,
		fmt.Sprintf(`INSERT INTO csv_imports (id, seller_id, filename, status, object_path, uploaded_at, processed, succeeded, file_rows, created_at, updated_at)
			SELECT pg_temp.uuid7(now() - make_interval(hours => g)), s.id, 'catalog-' || g || '.csv', 'completed', 'bench/' || g,
			       now() - make_interval(hours => g), 1000, 1000, 1000, now() - make_interval(hours => g), now() - make_interval(hours => g)
			FROM generate_series(1, %d) g JOIN bench_sellers s ON s.n = 1`, catalogImports),
		fmt.Sprintf(`INSERT INTO console_users (id, kind, seller_id, email, role, password_hash, totp_secret, created_at)
			SELECT gen_random_uuid(), 'seller_user', s.id, 'user' || g || '@example.com', 'agent', 'bench', '\x00', now() - make_interval(days => g)
			FROM generate_series(1, %d) g JOIN bench_sellers s ON s.n = 1`, sellerUsers),
		fmt.Sprintf(`INSERT INTO console_audit (id, at, actor_email, action, target, detail, outcome)
			SELECT gen_random_uuid(), now() - make_interval(secs => g),
			       'ops' || g %% 20 || '@example.com', (ARRAY['offer.accept', 'offer.decline', 'sign_in', 'sign_out'])[1 + g %% 4],
			       'offer ' || gen_random_uuid(), 'bench', 'succeeded'
			FROM generate_series(1, %d) g`, auditEntries),
		`VACUUM ANALYZE`,
	}
}
