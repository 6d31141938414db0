// The custom-rule operations of one application (docs/service-api.md, "List custom rules", "Update a rule") on the management host.
import { RemoteError, UserError } from '../errors.js';
import type { LiveRule, PatchBody } from '../semantics/model.js';
import { createHostClient } from './http.js';
import { duplicateRuleIdMessage, firstDuplicateRuleId, toLiveRule, UnusableRule, unusableAnswer } from './live-rule.js';
import { validateListAnswer, validateUpdateAnswer, type ApiRule } from './rule-response.js';
import type { RulesApi, RulesClientOptions } from './types.js';

const RULES_PATH = 'v2/botProtection/customRules';

/**
 * The ids botrules accepts from the service and from plan files (docs/security.md, "Ids are
 * data"): an id goes into a request path, so `..` or `a/b` must never reach one.
 */
const RULE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A rule id as it may be quoted in a message: JSON-quoted and cut short. */
function quotedId(ruleId: string): string {
  const quoted = JSON.stringify(ruleId);
  return quoted.length > 40 ? `${quoted.slice(0, 37)}..."` : quoted;
}

export function createRulesClient(options: RulesClientOptions): RulesApi {
  const host = createHostClient(options);
  const tokenHint = `check ${options.tokenVariable} (app ${options.app})`;
  const refuseUnsafeId = (ruleId: string, verb: string): void => {
    if (RULE_ID_PATTERN.test(ruleId)) return;
    throw new UserError(`refusing to ${verb} the rule with id ${quotedId(ruleId)} of app ${options.app}: a ruleId is 1 to 128 letters, digits, "_" or "-"; nothing was sent`);
  };

  async function listRules(): Promise<LiveRule[]> {
    const operation = `listing rules of app ${options.app}`;
    const body = await host.send({
      method: 'GET',
      path: RULES_PATH,
      operation,
      explainStatus: (status) =>
        // The list (docs/service-api.md, "Errors") answers 400 both to a bad request and to a token it does not accept.
        status === 400 || status === 401 || status === 403
          ? `the request was refused (${status}): the request is invalid or the server token is not accepted: ${tokenHint}`
          : undefined,
    });
    // `content` may be absent, and is an empty list when there are no rules (docs/service-api.md, "Response envelope").
    const content = validateListAnswer(body, operation).content ?? [];
    const badId = content.findIndex((rule) => !RULE_ID_PATTERN.test(rule.ruleId as string));
    if (badId >= 0) {
      const rule = content[badId] as ApiRule;
      throw new RemoteError(
        `the service returned a rule list botrules does not understand: content[${badId}] (rule ` +
          `${JSON.stringify(rule.name.slice(0, 80))}) has the ruleId ${quotedId(rule.ruleId as string)}, ` +
          'which is not 1 to 128 letters, digits, "_" or "-"; botrules sends no update while the list holds it',
        { operation },
      );
    }
    const duplicate = firstDuplicateRuleId(content);
    if (duplicate) {
      throw new RemoteError(`the service returned a rule list botrules does not understand: content[${duplicate.index}]: ${duplicateRuleIdMessage(duplicate.ruleId, options.app)}`, { operation });
    }
    const rules = content.map((rule, index) =>
      convert(rule, `content[${index}]`, rule.ruleId as string, index, 'a rule list', operation));
    // Stable: rules with equal priorities keep the service's order.
    return rules.sort((a, b) => a.priority - b.priority);
  }

  async function patchRule(ruleId: string, patch: PatchBody): Promise<LiveRule> {
    refuseUnsafeId(ruleId, 'update');
    const operation = `updating rule ${ruleId} of app ${options.app}`;
    const body = await host.send({
      method: 'PATCH',
      path: `${RULES_PATH}/${encodeURIComponent(ruleId)}`,
      json: patch,
      operation,
      explainStatus: (status, serverMessage) => {
        const said = serverMessage ? `: ${serverMessage}` : '';
        if (status === 404) return `rule ${ruleId} no longer exists: it was deleted in the console; run plan again`;
        if (status === 400) return `the service refused the update (400)${said}`;
        if (status === 422) return `the service could not apply the update (422)${said}`;
        if (status === 401 || status === 403) return `the server token was not accepted (${status}): ${tokenHint}`;
        return undefined;
      },
    });
    const content = validateUpdateAnswer(body, operation).content;
    if (content === undefined) {
      // The envelope makes `content` optional even here (docs/service-api.md, "Response envelope"). The update went through, but the
      // resulting rule is unknown, and making one up from the request would be a guess.
      throw new RemoteError(
        `the service accepted the update of rule ${ruleId} but did not return the rule: run plan to see the result`,
        { operation },
      );
    }
    // The answer may leave out the id (the path names it) and the priority (the one sent, if any).
    if (content.ruleId !== undefined && content.ruleId !== ruleId) {
      throw new RemoteError(
        `the service answered the update of rule ${ruleId} with a different rule (ruleId ${quotedId(content.ruleId)}): run plan to see the result`,
        { operation },
      );
    }
    return convert(content, 'content', ruleId, patch.priority ?? -1, 'an updated rule', operation);
  }

  /**
   * 404 or 405 to a POST or DELETE: the service (or this URL) does not offer it, whatever the
   * config says; the sentence names the setting to turn off (docs/behaviour.md, "Creating and deleting rules").
   */
  const unsupported = (status: number, what: string, setting: string): string =>
    `the service does not ${what} (${status} to the request): set ${setting}: false for app ${options.app} in botrules.yaml, ` +
    'and botrules plans for a service without it';

  async function createRule(body: PatchBody): Promise<LiveRule> {
    const operation = `creating rule ${JSON.stringify(body.name ?? '')} in app ${options.app}`;
    // Never retried (http.ts retries GET and PATCH only): a POST sent twice makes two rules.
    const answer = await host.send({
      method: 'POST',
      path: RULES_PATH,
      json: body,
      operation,
      explainStatus: (status, serverMessage) => {
        const said = serverMessage ? `: ${serverMessage}` : '';
        if (status === 404 || status === 405) return unsupported(status, 'create rules', 'service.create');
        if (status === 400) return `the service refused the new rule (400)${said}`;
        if (status === 401 || status === 403) return `the server token was not accepted (${status}): ${tokenHint}`;
        return undefined;
      },
    });
    const content = validateUpdateAnswer(answer, operation).content;
    if (content?.ruleId === undefined || !RULE_ID_PATTERN.test(content.ruleId)) {
      // The rule was (probably) created, but without its id botrules cannot name or undo it.
      throw new RemoteError(
        `the service accepted the new rule ${JSON.stringify(body.name ?? '')} but did not return it with a usable ruleId: run plan to see the result`,
        { operation },
      );
    }
    return convert(content, 'content', content.ruleId, body.priority ?? -1, 'a created rule', operation);
  }

  async function deleteRule(ruleId: string): Promise<void> {
    refuseUnsafeId(ruleId, 'delete');
    const operation = `deleting rule ${ruleId} of app ${options.app}`;
    await host.send({
      method: 'DELETE',
      path: `${RULES_PATH}/${encodeURIComponent(ruleId)}`,
      operation,
      explainStatus: (status) => {
        if (status === 405) return unsupported(status, 'delete rules', 'service.delete');
        // A 404 may also mean the rule went between the LIST and the DELETE: both are said.
        if (status === 404) return `rule ${ruleId} is gone (deleted in the console), or ${unsupported(status, 'delete rules', 'service.delete')}`;
        if (status === 401 || status === 403) return `the server token was not accepted (${status}): ${tokenHint}`;
        return undefined;
      },
    });
  }

  return { listRules, patchRule, createRule, deleteRule };
}

function convert(rule: ApiRule, path: string, ruleId: string, fallbackPriority: number, what: string, operation: string): LiveRule {
  try {
    return toLiveRule(rule, path, ruleId, fallbackPriority);
  } catch (error) {
    if (error instanceof UnusableRule) throw unusableAnswer(what, error, rule.name, operation);
    throw error;
  }
}
