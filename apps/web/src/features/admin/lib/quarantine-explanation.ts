import type { MessageExplanation, QuarantineExplanation, QuarantinedMessage } from '@pivot/contracts';
import type { TFunction } from 'i18next';
import { dateTimeFormat } from '@/i18n/use-date-time-format';
import type { Locale } from '@/config/locales';
import { numberFormat } from '@/i18n/number-format';

/** The field a schema named, or the whole message when it named none. */
const WHOLE_MESSAGE = '(message)';

/**
 * Why a message was set aside, in the reader's language, from the code and parameters the server
 * gives; a row kept before codes were shows the server's English detail as it is.
 */
export function quarantineDetailText(
  t: TFunction,
  locale: Locale,
  message: Pick<QuarantinedMessage, 'detail' | 'explanation'>,
): string {
  return message.explanation ? explanationText(t, locale, message.explanation) : message.detail;
}

function explanationText(t: TFunction, locale: Locale, explanation: QuarantineExplanation): string {
  const number = numberFormat(locale, { maximumFractionDigits: 2 }).format;
  const { dateTimeToSecond } = dateTimeFormat(locale);
  if (explanation.code !== 'rate_limited') return messageExplanationText(t, locale, explanation);
  return t('admin.rejected.explanations.rate_limited', {
    notKept: number(explanation.notKept),
    since: dateTimeToSecond(explanation.since),
    keptPerMinute: number(explanation.keptPerMinute),
    reasons: explanation.notKeptByReason
      .map(({ reason, count }) => `${t(`admin.rejected.reasons.${reason}`)} ${number(count)}`)
      .join(', '),
    last: `${t(`admin.rejected.reasons.${explanation.lastReason}`)}: ${messageExplanationText(t, locale, explanation.last)}`,
  });
}

function messageExplanationText(t: TFunction, locale: Locale, explanation: MessageExplanation): string {
  const number = numberFormat(locale, { maximumFractionDigits: 2 }).format;
  const { dateTimeToSecond } = dateTimeFormat(locale);
  switch (explanation.code) {
    case 'too_large':
      return t('admin.rejected.explanations.too_large', {
        bytes: number(explanation.bytes),
        limit: number(explanation.limit),
      });
    case 'too_many_corners':
      return t('admin.rejected.explanations.too_many_corners', {
        corners: number(explanation.corners),
        limit: number(explanation.limit),
      });
    case 'not_json':
      return t('admin.rejected.explanations.not_json');
    case 'invalid':
      return explanation.issues
        .map(({ path, problem, limit }) => {
          const field = path === WHOLE_MESSAGE ? t('admin.rejected.problems.wholeMessage') : path;
          return limit === undefined || (problem !== 'too_big' && problem !== 'too_small')
            ? t(`admin.rejected.problems.${problem}`, { field })
            : t(`admin.rejected.problems.${problem}_limit`, { field, limit: number(limit) });
        })
        .join('; ');
    case 'clock_ahead':
    case 'too_old':
      return t(`admin.rejected.explanations.${explanation.code}`, { time: dateTimeToSecond(explanation.ts) });
    case 'distance_beyond_arm':
      return t('admin.rejected.explanations.distance_beyond_arm', {
        distance: number(explanation.distance),
        armLength: number(explanation.armLength),
        endGunMargin: number(explanation.endGunMargin),
      });
    case 'position_beyond_arm':
      return t('admin.rejected.explanations.position_beyond_arm', {
        lng: String(explanation.lng),
        lat: String(explanation.lat),
        fromCentre: number(explanation.fromCentre),
        armLength: number(explanation.armLength),
        endGunMargin: number(explanation.endGunMargin),
      });
    case 'refused':
      return t('admin.rejected.explanations.refused', { message: explanation.databaseMessage });
  }
}
