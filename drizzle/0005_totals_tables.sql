CREATE TABLE "lead_daily_totals" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"leads" integer NOT NULL,
	"payout" numeric NOT NULL,
	CONSTRAINT "lead_daily_totals_pkey" PRIMARY KEY("day","status","slot")
);
--> statement-breakpoint
CREATE TABLE "lead_publisher_daily_totals" (
	"publisher_id" uuid NOT NULL,
	"day" date NOT NULL,
	"slot" integer NOT NULL,
	"leads" integer NOT NULL,
	"payout" numeric NOT NULL,
	CONSTRAINT "lead_publisher_daily_totals_pkey" PRIMARY KEY("publisher_id","day","slot")
);
--> statement-breakpoint
CREATE TABLE "lead_totals" (
	"publisher_id" uuid NOT NULL,
	"status" text NOT NULL,
	"slot" integer NOT NULL,
	"leads" integer NOT NULL,
	"payout" numeric NOT NULL,
	"call_duration" bigint NOT NULL,
	CONSTRAINT "lead_totals_pkey" PRIMARY KEY("publisher_id","status","slot")
);
--> statement-breakpoint
CREATE TABLE "payout_daily_totals" (
	"day" date NOT NULL,
	"slot" integer NOT NULL,
	"payouts" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "payout_daily_totals_pkey" PRIMARY KEY("day","slot")
);
--> statement-breakpoint
CREATE TABLE "payout_totals" (
	"publisher_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"payouts" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "payout_totals_pkey" PRIMARY KEY("publisher_id","slot")
);
