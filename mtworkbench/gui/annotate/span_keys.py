"""Nested spans and relations in the Annotate workspace, keyboard first.

- The caret selects the innermost span under it; **Tab** cycles through every span
  at the caret (outer ones, stacked ones), so a nested span is reached without a mouse.
- **Delete** removes the selected span and its relations (one undo step).
- A relation: select the source span, press a relation key (R translation-of,
  W part-of by default; **Ctrl+L** starts with the first type), move the caret to the
  target span (arrows, Tab), press **Enter**. **Esc** cancels. With the mouse:
  select the source span, then Ctrl+click the target.
"""

from __future__ import annotations

from collections.abc import Callable

from mtworkbench.core.layers import ENTITIES, RELATIONS, Relation, spans_at
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.wording import plural
from mtworkbench.gui.annotate.commands import AddRelationCommand, RemoveSpanWithRelationsCommand
from mtworkbench.gui.annotate.text_view import EntityTextView
from mtworkbench.gui.session import ProjectSession


class SpansAndRelations:
    """Mixed into the Annotate workspace after its QWidget base (whose methods win)."""

    session: ProjectSession
    view: EntityTextView
    reference: str
    annotator: str
    # (relation type, source span id) while a relation is being drawn, else None.
    pending_relation: tuple[str, str] | None = None
    pending_layer: str = RELATIONS  # the relation layer of the pending relation's type
    active_layer_name: Callable[[], str]  # the layer edited (LayerChoice)

    @property
    def project(self) -> Project:
        raise NotImplementedError

    def say(self, message: str, problem: bool = False) -> None:
        raise NotImplementedError

    def _text_of(self, span: EntitySpan) -> str:
        raise NotImplementedError
    # --- what is shown ---------------------------------------------------------------------
    def _layer_spans(self, segment_id: str) -> list[EntitySpan]:
        """The annotator's spans of the active layer in a segment, on the text shown."""
        layer = self.active_layer_name()
        if not self.annotator or (not self.reference and layer == ENTITIES):
            return []
        return [s for s in self.project.spans_for(self.reference, segment_id, self.annotator) if s.layer == layer]

    def _shown_relations(self) -> list[Relation]:
        return [r for r in self.project.relations if r.annotator == self.annotator]

    def _relation_directed(self, layer: str) -> bool:
        """Whether relations of ``layer`` have a direction (an unknown layer: drawn as directed)."""
        return next((lay.directed for lay in self.project.settings.relation_layers if lay.name == layer), True)

    def relation_keys(self) -> dict[str, str]:
        """Relation type by key (upper case), from every relation layer (a key is one layer's)."""
        return {key: name for key, (_layer, name) in self._relation_key_map().items()}

    def _relation_key_map(self) -> dict[str, tuple[str, str]]:
        """(relation layer, type) by key; the layer schema keeps keys unique across layers."""
        found: dict[str, tuple[str, str]] = {}
        for layer in self.project.settings.relation_layers:
            for t in layer.types:
                if t.key:
                    found.setdefault(t.key.upper(), (layer.name, t.name))
        return found

    # --- the selected span -----------------------------------------------------------------
    def spans_at_caret(self) -> list[EntitySpan]:
        caret = self.view.caret()
        if caret is None or self.view.has_selection():
            return []
        segment, offset = caret
        return spans_at(self._layer_spans(segment), offset)

    def span_at_caret(self) -> EntitySpan | None:
        found = self.spans_at_caret()
        return found[0] if found else None

    def _select_span_at_caret(self) -> None:
        found = self.spans_at_caret()
        if self.view.selected_span not in [s.id for s in found]:
            self.view.set_selected_span(found[0].id if found else None)

    def selected_span(self) -> EntitySpan | None:
        span_id = self.view.selected_span
        if span_id is None:
            return None
        try:
            return self.project.span(span_id)
        except ModelError:
            return None

    def cycle_span(self) -> None:
        """Select the next span at the caret (innermost first, then outwards, then round)."""
        found = self.spans_at_caret()
        if not found:
            self.say("No entity at the caret to cycle through.", True)
            return
        ids = [s.id for s in found]
        current = self.view.selected_span
        nxt = found[(ids.index(current) + 1) % len(found)] if current in ids else found[0]
        self.view.set_selected_span(nxt.id)
        depth = f" ({ids.index(nxt.id) + 1} of {len(found)} here)" if len(found) > 1 else ""
        self.say(f"Selected the {nxt.type} “{self._text_of(nxt)}”{depth}.")

    def delete_selected(self) -> None:
        span = self.selected_span()
        if span is None:
            self.say("Click an entity first, then Delete removes it.", True)
            return
        command = RemoveSpanWithRelationsCommand(self.project, span.id)
        self.session.push(command)
        linked = f" and {plural(len(command.relations), 'relation')}" if command.relations else ""
        self.say(f"Removed the {span.type} “{self._text_of(span)}”{linked}.")

    # --- relations -------------------------------------------------------------------------
    def start_relation(self, key: str = "") -> None:
        keys = self._relation_key_map()
        chosen = keys.get(key) if key else next(iter(keys.values()), None)
        source = self.selected_span()
        if chosen is None:
            self.say("The project has no relation type for that key.", True)
            return
        self.pending_layer, relation_type = chosen
        if source is None:
            self.say("Select the source entity first (put the caret in it; Tab picks a nested one).", True)
            return
        self.pending_relation = (relation_type, source.id)
        self.view.relation_source = source.id
        self.view.viewport().update()
        self.say(f"{relation_type} from “{self._text_of(source)}”: move to the target entity and press Enter "
                 "(Esc cancels).")

    def cancel_relation(self) -> None:
        if self.pending_relation is not None:
            self.pending_relation = None
            self.view.relation_source = None
            self.view.viewport().update()
            self.say("No relation drawn.")

    def confirm_relation(self) -> None:
        if self.pending_relation is None:
            return
        target = self.selected_span()
        if target is None:
            self.say("Put the caret in the target entity, then press Enter.", True)
            return
        self.link_to(target)

    def link_to(self, target: EntitySpan) -> None:
        if self.pending_relation is None:
            return
        relation_type, source_id = self.pending_relation
        relation = Relation(self.project.new_id("r"), relation_type, source_id, target.id, self.annotator,
                            self.pending_layer)
        try:
            self.project.check_relation(relation)
        except ModelError as exc:
            self.say(f"Not linked: {exc}.", True)
            return
        self.pending_relation = None
        self.view.relation_source = None
        self.session.push(AddRelationCommand(self.project, relation))
        source = self.project.span(source_id)
        self.say(f"Linked “{self._text_of(source)}” {relation_type} “{self._text_of(target)}”.")

    def clicked_with_control(self, segment: str, offset: int) -> None:
        """Ctrl+click on a span: the target of a relation from the selected span."""
        found = spans_at(self._layer_spans(segment), offset)
        if not found:
            return
        if self.pending_relation is None:
            self.start_relation()
            if self.pending_relation is None:
                return
        self.link_to(found[0])
