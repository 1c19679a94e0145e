//! The families of inputs canonfuzz tests. Each has a vector schema; the ones with a
//! differential campaign also say how a case is generated, which implementations answer it,
//! which group's answer stands in when there is no consensus, and where the core departs from
//! the others on purpose.

use crate::compare::{
    Rules, ED25519_POLICIES, EKL_POLICIES, INK_POLICIES, JCS_RULES, JWS_POLICIES, MERKLE_RULES,
    VMCP_POLICIES,
};
use crate::gen::{self, Category};
use crate::impls::{self, Implementation};
use crate::vector::{
    ED25519_SCHEMA, EKL_SCHEMA, INK_CAMPAIGN_SCHEMA, JCS_SCHEMA, JWS_SCHEMA, MERKLE_SCHEMA,
    VMCP_SCHEMA,
};

/// A kind of input, its vector files and (for some) its campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// `canonfuzz_jcs_v1`: canonicalization.
    Jcs,
    /// `canonfuzz_ed25519_v1`: signature verification.
    Ed25519,
    /// `canonfuzz_jws_v1`: compact JWS verification and JWK thumbprints.
    Jws,
    /// `canonfuzz_vmcp_v1`: verifiable-mcp responses.
    Vmcp,
    /// `canonfuzz_ekl_v1`: the adapter profile's fingerprints and challenge proofs.
    Ekl,
    /// `canonfuzz_merkle_v1`: RFC 9162 tree roots, inclusion and consistency proofs.
    Merkle,
    /// `canonfuzz_ink_v1`: INK leaf hashes and signature bases.
    Ink,
}

/// What a family's differential campaign is made of.
pub struct Campaign {
    /// Generates case `index` of a campaign with `seed`.
    pub generate: fn(seed: u64, index: u64) -> (Category, Vec<u8>),
    /// Every implementation compared, the core first.
    pub implementations: fn() -> Vec<Box<dyn Implementation>>,
    /// Its registered, deliberate differences of the core, and the group whose answer stands
    /// in when the independent groups reach no consensus.
    pub rules: Rules,
    /// Why that group.
    pub reference_reason: &'static str,
    /// The table the campaign prints beside its findings, over the corpus, if the family has
    /// one: its Markdown and JSON, from the implementations selected and the corpus.
    pub corpus_table: Option<CorpusTable>,
}

/// A family's table over the corpus: `(markdown, json)` for the implementations selected.
pub type CorpusTable =
    fn(&[String], &std::path::Path) -> Result<(String, serde_json::Value), String>;

static JCS: Campaign = Campaign {
    generate: gen::jcs_case,
    implementations: impls::jcs,
    rules: JCS_RULES,
    reference_reason: "RFC 8785 defers to ECMAScript, so V8's answer",
    corpus_table: None,
};

static ED25519: Campaign = Campaign {
    generate: gen::ed25519::case,
    implementations: impls::ed25519,
    rules: Rules {
        family: "ed25519",
        policies: &ED25519_POLICIES,
        reference_group: "libsodium",
    },
    reference_reason: "libsodium's answer, the verifier most deployments link",
    corpus_table: Some(crate::report::ed25519_corpus_table),
};

static JWS: Campaign = Campaign {
    generate: gen::jws::case,
    implementations: impls::jws,
    rules: Rules {
        family: "jws",
        policies: &JWS_POLICIES,
        reference_group: "panva-jose",
    },
    reference_reason: "npm jose's answer, the JOSE library with the widest conformance suite",
    corpus_table: None,
};

static EKL: Campaign = Campaign {
    generate: gen::ekl::case,
    implementations: impls::ekl,
    rules: Rules {
        family: "ekl",
        policies: &EKL_POLICIES,
        reference_group: "node-v8",
    },
    reference_reason: "V8's answer, as RFC 8785 defers to ECMAScript",
    corpus_table: None,
};

static INK: Campaign = Campaign {
    generate: gen::ink::case,
    implementations: impls::ink,
    rules: Rules {
        family: "ink",
        policies: &INK_POLICIES,
        reference_group: "node-v8",
    },
    reference_reason: "V8's answer, as INK's reference implementation runs on it",
    corpus_table: None,
};

static VMCP: Campaign = Campaign {
    generate: gen::vmcp::case,
    implementations: impls::vmcp,
    rules: Rules {
        family: "vmcp",
        policies: &VMCP_POLICIES,
        reference_group: "node-v8",
    },
    reference_reason: "the Node verifier's answer, built on npm jose, the JOSE library with the widest conformance suite",
    corpus_table: None,
};

static MERKLE: Campaign = Campaign {
    generate: gen::merkle::case,
    implementations: impls::merkle,
    rules: MERKLE_RULES,
    reference_reason:
        "ct-merkle's answer, the only other verifier of RFC 9162 consistency proofs here",
    corpus_table: None,
};

impl Family {
    /// Every family.
    pub const ALL: [Family; 7] = [
        Family::Jcs,
        Family::Ed25519,
        Family::Jws,
        Family::Vmcp,
        Family::Ekl,
        Family::Merkle,
        Family::Ink,
    ];

    /// A stable lowercase name, as `--family` takes it and vectors' directories use it.
    pub fn name(self) -> &'static str {
        match self {
            Family::Jcs => "jcs",
            Family::Ed25519 => "ed25519",
            Family::Jws => "jws",
            Family::Vmcp => "vmcp",
            Family::Ekl => "ekl",
            Family::Merkle => "merkle",
            Family::Ink => "ink",
        }
    }

    /// The family with this name.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The schema of this family's vector files.
    pub fn schema(self) -> &'static str {
        match self {
            Family::Jcs => JCS_SCHEMA,
            Family::Ed25519 => ED25519_SCHEMA,
            Family::Jws => JWS_SCHEMA,
            Family::Vmcp => VMCP_SCHEMA,
            Family::Ekl => EKL_SCHEMA,
            Family::Merkle => MERKLE_SCHEMA,
            Family::Ink => INK_CAMPAIGN_SCHEMA,
        }
    }

    /// The family a schema name belongs to.
    pub fn from_schema(schema: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.schema() == schema)
    }

    /// The family's differential campaign, if it has one.
    pub fn campaign(self) -> Option<&'static Campaign> {
        match self {
            Family::Jcs => Some(&JCS),
            Family::Ed25519 => Some(&ED25519),
            Family::Jws => Some(&JWS),
            Family::Merkle => Some(&MERKLE),
            Family::Ekl => Some(&EKL),
            Family::Ink => Some(&INK),
            Family::Vmcp => Some(&VMCP),
        }
    }

    /// What the family's verdicts rest on; a family without a campaign registers nothing.
    pub fn rules(self) -> Rules {
        self.campaign().map_or(
            Rules {
                family: self.name(),
                policies: &[],
                reference_group: "",
            },
            |c| c.rules,
        )
    }

    /// The names of the families with a campaign, for `--family`.
    pub fn with_campaigns() -> Vec<&'static str> {
        Family::ALL
            .into_iter()
            .filter(|f| f.campaign().is_some())
            .map(Family::name)
            .collect()
    }

    /// The family's campaign, or an error naming those that have one.
    pub fn require_campaign(self) -> Result<&'static Campaign, String> {
        self.campaign().ok_or_else(|| {
            format!(
                "the {} family has no differential campaign; choose one of: {}",
                self.name(),
                Family::with_campaigns().join(", ")
            )
        })
    }
}
