import type { AutopilotStartFailure, IncidentKind, IncidentPhase, Language } from '@pivot/contracts';

/** What an alert says outside the app (e-mail, push), in the words of the activity log's titles. */
type Wording = Record<
  IncidentKind,
  Record<IncidentPhase, { title: string; sentence: (machine: string, detail: string) => string }>
>;

/** Why the autopilot's start failed, in words (`AUTOPILOT_START_FAILURES`). */
const START_FAILURES: Record<Language, Record<AutopilotStartFailure, string>> = {
  en: {
    unanswered: 'the machine did not answer in time',
    refused: 'the machine refused the command',
    unreadable: "the machine's answer could not be read",
    offline: 'the machine is offline',
    broker_down: 'the message broker cannot be reached',
    clock_wrong: "the machine's clock is wrong",
    error: 'the command failed',
    interrupted: 'the server stopped during the start, before the machine was started',
  },
  pl: {
    unanswered: 'maszyna nie odpowiedziała na czas',
    refused: 'maszyna odrzuciła polecenie',
    unreadable: 'nie udało się odczytać odpowiedzi maszyny',
    offline: 'maszyna jest offline',
    broker_down: 'brak połączenia z brokerem wiadomości',
    clock_wrong: 'zegar maszyny jest źle ustawiony',
    error: 'polecenie się nie powiodło',
    interrupted: 'serwer zatrzymał się w trakcie uruchamiania, zanim maszyna ruszyła',
  },
};

const WORDING: Record<Language, Wording> = {
  en: {
    alarm: {
      began: { title: 'Alarm', sentence: (machine, detail) => `Machine ${machine} reports an alarm: ${detail}` },
      ended: { title: 'Alarm cleared', sentence: (machine) => `Machine ${machine} no longer reports an alarm` },
    },
    unexpected_stop: {
      began: {
        title: 'Stopped unexpectedly',
        sentence: (machine, detail) => `Machine ${machine} stopped without a stop command ${detail}`.trim(),
      },
      ended: { title: 'Moving again', sentence: (machine) => `Machine ${machine} is moving again` },
    },
    offline: {
      began: {
        title: 'Machine offline',
        sentence: (machine) => `Machine ${machine} lost its connection or stopped reporting`,
      },
      ended: {
        title: 'Machine back online',
        sentence: (machine) => `Machine ${machine} is connected and reporting again`,
      },
    },
    low_pressure: {
      began: {
        title: 'Low pressure',
        sentence: (machine, detail) => `Pressure at machine ${machine} fell to ${detail} while it moves`,
      },
      ended: {
        title: 'Low pressure over',
        sentence: (machine, detail) => `Pressure at machine ${machine} is back to ${detail}`,
      },
    },
    water_stress: {
      began: {
        title: 'Water stress',
        sentence: (machine, detail) =>
          `The soil at machine ${machine} is drier than its readily available water in: ${detail}`,
      },
      ended: {
        title: 'Water stress over',
        sentence: (machine) => `The soil at machine ${machine} holds its readily available water again`,
      },
    },
    irrigation_due: {
      began: {
        title: 'Irrigation due',
        sentence: (machine, detail) =>
          `Machine ${machine} is due to water now: ${detail}. Open it to send the program from the advice.`,
      },
      ended: {
        title: 'Irrigation no longer due',
        sentence: (machine) => `Machine ${machine} is watering, or no longer due`,
      },
    },
    start_failed: {
      began: {
        title: 'Autopilot could not start',
        sentence: (machine, detail) =>
          `The autopilot could not start machine ${machine}: ${START_FAILURES.en[detail as AutopilotStartFailure] ?? detail}`,
      },
      ended: {
        title: 'Autopilot started again',
        sentence: (machine) => `The autopilot started machine ${machine}`,
      },
    },
  },
  pl: {
    alarm: {
      began: { title: 'Alarm', sentence: (machine, detail) => `Maszyna ${machine} zgłasza alarm: ${detail}` },
      ended: { title: 'Alarm ustał', sentence: (machine) => `Maszyna ${machine} nie zgłasza już alarmu` },
    },
    unexpected_stop: {
      began: {
        title: 'Nieoczekiwane zatrzymanie',
        sentence: (machine, detail) => `Maszyna ${machine} zatrzymała się bez polecenia zatrzymania ${detail}`.trim(),
      },
      ended: { title: 'Znów w ruchu', sentence: (machine) => `Maszyna ${machine} znów jedzie` },
    },
    offline: {
      began: {
        title: 'Maszyna bez łączności',
        sentence: (machine) => `Maszyna ${machine} straciła połączenie lub przestała raportować`,
      },
      ended: {
        title: 'Maszyna znów połączona',
        sentence: (machine) => `Maszyna ${machine} jest połączona i znów raportuje`,
      },
    },
    low_pressure: {
      began: {
        title: 'Niskie ciśnienie',
        sentence: (machine, detail) => `Ciśnienie na maszynie ${machine} spadło do ${detail} podczas pracy`,
      },
      ended: {
        title: 'Koniec niskiego ciśnienia',
        sentence: (machine, detail) => `Ciśnienie na maszynie ${machine} wróciło do ${detail}`,
      },
    },
    water_stress: {
      began: {
        title: 'Stres wodny',
        sentence: (machine, detail) =>
          `Gleba na maszynie ${machine} jest suchsza niż pozwala woda łatwo dostępna (RAW): ${detail}`,
      },
      ended: {
        title: 'Koniec stresu wodnego',
        sentence: (machine) => `Gleba na maszynie ${machine} znów ma wodę łatwo dostępną`,
      },
    },
    irrigation_due: {
      began: {
        title: 'Pora nawadniać',
        sentence: (machine, detail) =>
          `Maszyna ${machine} powinna teraz nawadniać: ${detail}. Otwórz ją, aby wysłać program z porady.`,
      },
      ended: {
        title: 'Nawadnianie już nie jest pilne',
        sentence: (machine) => `Maszyna ${machine} nawadnia lub nie musi już nawadniać`,
      },
    },
    start_failed: {
      began: {
        title: 'Autopilot nie uruchomił maszyny',
        sentence: (machine, detail) =>
          `Autopilot nie mógł uruchomić maszyny ${machine}: ${START_FAILURES.pl[detail as AutopilotStartFailure] ?? detail}`,
      },
      ended: {
        title: 'Autopilot znów uruchamia',
        sentence: (machine) => `Autopilot uruchomił maszynę ${machine}`,
      },
    },
  },
};

/** The alarm reasons the protocol names, in words; any other is shown as the machine sent it. */
const ALARM_REASONS: Record<Language, Record<string, string>> = {
  en: { pressure_loss: 'water pressure lost' },
  pl: { pressure_loss: 'spadek ciśnienia wody' },
};

/** An incident's detail as recorded ("0.2 bar", "pressure_loss") in the user's language. */
function readableDetail(language: Language, detail: string): string {
  const pressure = /^(-?\d+(?:\.\d+)?) bar$/.exec(detail);
  if (pressure) {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(Number(pressure[1]))} bar`;
  }
  return ALARM_REASONS[language][detail] ?? detail;
}

/** An incident's name, as its alert's title says it ("Low pressure"). */
export function incidentTitle(language: Language, kind: IncidentKind): string {
  return WORDING[language][kind].began.title;
}

/** An incident phase as a title and a sentence, in the user's language. */
export function alertWords(
  language: Language,
  alert: { kind: IncidentKind; phase: IncidentPhase; sprinklerName: string; detail: string },
): { title: string; sentence: string } {
  const words = WORDING[language][alert.kind][alert.phase];
  return { title: words.title, sentence: words.sentence(alert.sprinklerName, readableDetail(language, alert.detail)) };
}
