#!/usr/bin/env bash
# Refund requests against a Payments API running on this machine.
set -euo pipefail
BASE="${PAYMENTS_URL:-http://localhost:8080}"
KEY="$(uuidgen)" # one key per refund, kept until the refund is confirmed

# <refund_v1>
curl -sS -X POST "$BASE/v1/refunds" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: $KEY" \
  -d '{"payment_id": "pay_123", "amount": 500}'
# </refund_v1>

# <refund_v2>
curl -sS -D - -X POST "$BASE/v2/payments/pay_123/refunds" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: $KEY" \
  -d '{"amount": {"value": 500, "currency": "EUR"}}'
# Sending it again with the same key returns the first answer
# and the header Idempotent-Replayed: true.
# </refund_v2>
