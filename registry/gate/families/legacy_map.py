"""Which family each fitted pattern rule (registry/gate/legacy_rules.py) belongs to, so a
refusal names the family in the same words whichever layer found it."""

FABRICATION_TITLE = "tells the assistant to answer without data or to invent figures"

_BY_FAMILY = {
    "override": "disregard_rules stop_following_rules rules_revoked consider_rules_void disregard_numbered_rule "
                "nullify_rules nothing_applies do_the_opposite",
    "negated_rules": "no_longer_bound free_from_rules no_restrictions act_without_restrictions without_product_rules",
    "priority": "outrank_rules obey_only_this conflict_goes_to_this_text conflict_obey_me conflict_self_wins "
                "prioritise_self self_as_authority self_phrase_outranks only_self_counts everything_else_secondary "
                "only_these_rules new_authority despite_product_rules anyway_despite_rules even_against_rules",
    "secrecy": "reveal_rules reveal_previous_text reveal_previous_text_en what_you_were_told ask_what_rules",
    "persona": "persona_switch persona_switch_unrestricted persona_without_limits",
    "mode": "jailbreak_mode",
    "framing": "counterfactual_no_rules pretend_no_rules",
    "authority": "authority_spoof authority_tag rules_changed_now_allowed",
}
LEGACY_FAMILY = {rule: family for family, rules in _BY_FAMILY.items() for rule in rules.split()}


def family_of(rule_name: str) -> str:
    """Rules not listed are about answering without data: the fabrication family."""
    return LEGACY_FAMILY.get(rule_name.replace(" ", "_"), "fabrication")
