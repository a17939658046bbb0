"""The step vocabulary under the name packs import (cli_contract.md: a pack may import ``browserops.plan.steps``):
the step file's models and the verbs' table. They are defined in :mod:`browserops.plan.model.steps` and
:mod:`browserops.plan.model.step_parts`; this module only keeps that name for packs already written."""

from browserops.plan.model.step_parts import (
    DialogAnswer,
    Expectation,
    Name,
    PlanModel,
    SemanticTarget,
    ValueRef,
    Within,
    container_role,
)
from browserops.plan.model.steps import (
    ACTIONS,
    CLICK_KINDS,
    CONFIRM_FREE,
    DEFAULT_ACTION,
    DEFAULT_KIND,
    SIDE_EFFECT_RANK,
    Action,
    Kind,
    Step,
    StepActionName,
    StepFile,
    StepValue,
    absolute_url,
    action_spec,
    word_action,
)
from browserops.plan.model.verbs import ActionSpec, default_kind

__all__ = [
    "ACTIONS", "CLICK_KINDS", "CONFIRM_FREE", "DEFAULT_ACTION", "DEFAULT_KIND", "SIDE_EFFECT_RANK", "Action",
    "ActionSpec", "DialogAnswer", "Expectation", "Kind", "Name", "PlanModel", "SemanticTarget", "Step",
    "StepActionName", "StepFile", "StepValue", "ValueRef", "Within", "absolute_url", "action_spec",
    "container_role", "default_kind", "word_action",
]
