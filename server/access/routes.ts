// The "Why?" explainer (issue 12): GET /event/manage/events/:id/explain re-runs the decision of a stored swipe event
// against the current access index and answers the chain of checks. The events screen's privilege (or the event
// report's); another tenant's event, or an event that is not a swipe, is 404.
import type { FastifyInstance } from 'fastify';
import { API, PRIV } from '../../contract';
import { HttpError, clientOf } from '../http/common';
import type { HardwareSimulator } from '../simulator/hardware';

export const EXPLAIN_PATH = `${API.events}/:id/explain`;

export function accessRoutes(app: FastifyInstance, { simulator }: { simulator: HardwareSimulator }) {
  app.get(EXPLAIN_PATH, { config: { privileges: [PRIV.events.view, PRIV.eventReport] } }, async (req) => {
    const clientId = clientOf(req);
    const raw = (req.params as { id?: string }).id ?? '';
    if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, 'Validation failed', [{ field: 'id', message: 'must be a whole number' }]);
    const out = await simulator.explain(clientId, Number(raw));
    if (!out) throw new HttpError(404, 'Swipe event not found');
    return out;
  });
}
